import type { Notification } from '@dossier/core';
import { describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api';
import {
  activeCountLabel,
  createNotificationsStore,
  NOTIFICATION_LOAD_RETRIES,
} from '../src/shell/notifications/notificationsStore';
import { fakeFetch, itemAt, json } from './helpers';

const n = (id: string, acknowledgedAt: string | null = null): Notification => ({
  $type: 'notification',
  notificationId: id,
  type: 'mention',
  target: `/request/ABC251122QXT42/`,
  text: id,
  createdAt: '2026-11-22T01:00:00Z',
  createdByDisplayName: null,
  acknowledgedAt,
});

describe('notifications store', () => {
  it('keeps the 20 most recent, newest first by id', async () => {
    const many = Array.from({ length: 25 }, (_, i) => n(String(i + 1)));
    const { fetch } = fakeFetch(() => json({ notifications: many }));
    const store = createNotificationsStore(createApi(fetch));
    await store.load();
    const ids = store.get().list.map((x) => x.notificationId);
    expect(ids).toHaveLength(20);
    expect(ids[0]).toBe('25');
    expect(ids[19]).toBe('6');
  });

  it('a failed load is logged and retried at once, a few times at most', async () => {
    const { fetch, calls } = fakeFetch(() => json({ message: 'down', code: 'x' }, 503));
    const log = { error: vi.fn() };
    await createNotificationsStore(createApi(fetch), log).load();
    expect(calls).toHaveLength(NOTIFICATION_LOAD_RETRIES + 1);
    expect(log.error).toHaveBeenCalledTimes(NOTIFICATION_LOAD_RETRIES + 1);
  });

  it('acknowledges one or all and refreshes the active count', async () => {
    const { fetch, calls } = fakeFetch((path) =>
      path === '/notifications/active'
        ? json({ count: 0, hasMore: false })
        : json({ notifications: [n('3', '2026-11-22T02:00:00Z')] }),
    );
    const store = createNotificationsStore(createApi(fetch));
    store.push(n('3'));
    expect(store.get().active.count).toBe(1);
    await store.acknowledge(['3']);
    expect(JSON.parse(itemAt(calls, 0).init!.body as string)).toEqual({ notificationIds: ['3'] });
    expect(itemAt(store.get().list, 0).acknowledgedAt).not.toBeNull();
    expect(store.get().active.count).toBe(0);
    await store.acknowledge('all');
    expect(JSON.parse(itemAt(calls, 2).init!.body as string)).toEqual({ all: true });
  });

  it('a failed acknowledge or count refresh is only logged', async () => {
    const { fetch } = fakeFetch(() => json({ message: 'no', code: 'x' }, 500));
    const log = { error: vi.fn() };
    const store = createNotificationsStore(createApi(fetch), log);
    await expect(store.acknowledge('all')).resolves.toBeUndefined();
    await expect(store.loadActive()).resolves.toBeUndefined();
    expect(log.error).toHaveBeenCalledTimes(2);
  });

  it('shows + when more active notifications exist', () => {
    expect(activeCountLabel({ count: 3, hasMore: false })).toBe('3');
    expect(activeCountLabel({ count: 99, hasMore: true })).toBe('99+');
  });
});
