import {
  type AcknowledgeNotifications,
  type ActiveNotifications,
  acknowledgeNotificationsRoute,
  activeNotificationsRoute,
  listNotificationsRoute,
  mergeNotifications,
  type Notification,
} from '@dossier/core';
import type { Api } from '../../api';
import { createStore, type Store } from '../../view/createStore';

export interface NotificationsState {
  /** The most recent notifications, newest first by id. */
  list: Notification[];
  active: ActiveNotifications;
}

export interface NotificationsStore extends Store<NotificationsState> {
  load(): Promise<void>;
  loadActive(): Promise<void>;
  acknowledge(ids: string[] | 'all'): Promise<void>;
  /** A notification pushed over the live connection. */
  push(notification: Notification): void;
  clear(): void;
}

/** A failed load is logged and retried at once, a few times at most. */
export const NOTIFICATION_LOAD_RETRIES = 3;

export function createNotificationsStore(
  api: Api,
  log: Pick<Console, 'error'> = console,
): NotificationsStore {
  const store = createStore<NotificationsState>({ list: [], active: { count: 0, hasMore: false } });

  async function load(): Promise<void> {
    for (let attempt = 0; attempt <= NOTIFICATION_LOAD_RETRIES; attempt++) {
      try {
        const answer = await api.call(listNotificationsRoute, {});
        store.set((s) => ({ list: mergeNotifications(s.list, answer.notifications ?? []) }));
        return;
      } catch (error) {
        log.error('Loading notifications failed', error);
      }
    }
  }

  async function loadActive(): Promise<void> {
    try {
      const active = await api.call(activeNotificationsRoute, {});
      store.set({ active: { count: active.count, hasMore: active.hasMore } });
    } catch (error) {
      log.error('Refreshing the active notification count failed', error);
    }
  }

  async function acknowledge(ids: string[] | 'all'): Promise<void> {
    if (ids !== 'all' && ids.length === 0) return;
    try {
      const body: AcknowledgeNotifications = ids === 'all' ? { all: true } : { notificationIds: ids };
      const answer = await api.call(acknowledgeNotificationsRoute, { body });
      store.set((s) => ({ list: mergeNotifications(s.list, answer.notifications ?? []) }));
    } catch (error) {
      log.error('Acknowledging notifications failed', error);
      return;
    }
    await loadActive();
  }

  function push(notification: Notification): void {
    store.set((s) => {
      const known = s.list.some((n) => n.notificationId === notification.notificationId);
      const unread = !notification.acknowledgedAt;
      return {
        list: mergeNotifications(s.list, [notification]),
        active: known || !unread ? s.active : { ...s.active, count: s.active.count + 1 },
      };
    });
  }

  return {
    ...store,
    load,
    loadActive,
    acknowledge,
    push,
    clear: () => store.set({ list: [], active: { count: 0, hasMore: false } }),
  };
}

/** The bell's label: the count, with + appended when more exist. */
export function activeCountLabel(active: ActiveNotifications): string {
  return `${active.count}${active.hasMore ? '+' : ''}`;
}
