import { useEffect } from 'react';
import { presenceReconnected, setPresenceSender } from '../features/presence/presenceChannel';
import { useStore } from '../view/createStore';
import { LiveConnection, liveUrl } from './live';
import { followReconnected, setFollowSender } from './liveChanges';
import { handleLiveMessage } from './liveMessages';
import { useServices } from './ServicesContext';

/**
 * Keeps the live connection open while a user is signed in. Every open reloads notifications, the
 * active count and the assigned tasks (and, after a reconnect, what the open page follows); every
 * close clears the assigned-task list.
 */
export function useLive(): void {
  const services = useServices();
  const userId = useStore(services.session, (s) => s.user?.id);

  useEffect(() => {
    if (!userId) return;
    const { notifications, tasks, view } = services;
    void notifications.loadActive();
    void tasks.load();
    let opened = false;
    const connection = new LiveConnection({
      url: liveUrl(window.location),
      onOpen: () => {
        void notifications.load();
        void notifications.loadActive();
        void tasks.load();
        presenceReconnected();
        followReconnected(opened);
        opened = true;
      },
      onClose: () => tasks.clear(),
      onMessage: (data) => handleLiveMessage(data, { notifications, tasks, view, userId }),
    });
    setPresenceSender((message) => connection.send(message));
    setFollowSender((message) => connection.send(message));
    connection.start();
    return () => {
      setPresenceSender(undefined);
      setFollowSender(undefined);
      connection.stop();
    };
  }, [services, userId]);
}
