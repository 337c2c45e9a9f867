import type { LiveMessage } from '@dossier/core';
import { deliverPresence } from '../features/presence/presenceChannel';
import { replaceByTaskId } from '../view/replaceByTaskId';
import type { ViewStore } from '../view/viewStore';
import { deliverRequestChanged, deliverTopicChanged } from './liveChanges';
import type { NotificationsStore } from './notifications/notificationsStore';
import type { TasksStore } from './tasks/tasksStore';

export interface LiveTargets {
  notifications: Pick<NotificationsStore, 'push'>;
  tasks: Pick<TasksStore, 'push'>;
  view: Pick<ViewStore, 'patch'>;
  userId: string;
  log?: Pick<Console, 'error'>;
}

function parse(data: unknown): LiveMessage | undefined {
  const value = typeof data === 'string' ? JSON.parse(data) : data;
  if (!value || typeof value !== 'object' || typeof (value as { $type?: unknown }).$type !== 'string') {
    throw new Error('Live message without $type');
  }
  return value as LiveMessage;
}

/** True when the view at `path` is the page of this request. */
export function isRequestPath(path: string, requestNumber: string): boolean {
  const pathname = (path.split(/[?#]/)[0] ?? '').replace(/\/+$/, '');
  return pathname === `/requests/${requestNumber}`;
}

/** Applies one message received over the live connection. */
export function handleLiveMessage(data: unknown, targets: LiveTargets): void {
  const log = targets.log ?? console;
  let message: LiveMessage | undefined;
  try {
    message = parse(data);
  } catch (error) {
    log.error('Live message could not be parsed', error);
    return;
  }
  if (!message) return;
  switch (message.$type) {
    case 'notification':
      targets.notifications.push(message);
      break;
    case 'workflowTask': {
      const task = message;
      targets.tasks.push(task, targets.userId);
      targets.view.patch((view) => replaceByTaskId(view, task));
      break;
    }
    case 'requestResult':
    case 'requestCorrespondence':
    case 'requestTasks':
    case 'requestChanged':
      // The open request page fetches itself again, unless the user is editing (see view/follow).
      deliverRequestChanged({
        requestNumber: message.requestNumber,
        by: 'by' in message ? message.by : undefined,
        version: 'version' in message && typeof message.version === 'number' ? message.version : undefined,
      });
      break;
    case 'topicChanged':
      if (typeof message.topic === 'string') deliverTopicChanged(message.topic);
      break;
    default:
      deliverPresence(message);
      break;
  }
}
