import type { AssignedTask, Notification, View } from '@dossier/core';
import { describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api';
import {
  followReconnected,
  followTopic,
  onLiveReconnected,
  onRequestChanged,
  setFollowSender,
} from '../src/shell/liveChanges';
import { handleLiveMessage, isRequestPath } from '../src/shell/liveMessages';
import { createNotificationsStore } from '../src/shell/notifications/notificationsStore';
import { createTasksStore } from '../src/shell/tasks/tasksStore';
import { createViewStore } from '../src/view/viewStore';
import { fakeFetch, json, silentLog } from './helpers';

function setup(path = '/', view: View = { $type: 'home' }) {
  const { fetch } = fakeFetch(() => json({}));
  const api = createApi(fetch);
  const get = vi.fn(async (): Promise<View> => ({ $type: 'request', reloaded: true }));
  return {
    notifications: createNotificationsStore(api, silentLog),
    tasks: createTasksStore(api, silentLog),
    view: createViewStore({ path, view }, { get, post: get }),
    get,
    userId: 'u1',
    log: { error: vi.fn() },
  };
}

const notification = (id: string, acknowledgedAt: string | null = null): Notification => ({
  $type: 'notification',
  notificationId: id,
  type: 'mention',
  target: `/request/ABC251122QXT42/notes/${id}`,
  text: `note ${id}`,
  createdAt: '2026-11-22T01:00:00Z',
  createdByDisplayName: null,
  acknowledgedAt,
});

const task = (overrides: Partial<AssignedTask> = {}): AssignedTask => ({
  $type: 'workflowTask',
  taskId: 't1',
  type: 'followUp',
  subject: 'Follow up',
  requestNumber: 'ABC251122QXT42',
  messageId: null,
  dueAt: '2026-11-25',
  isOverdue: false,
  isAssignedTo: 'u1',
  ...overrides,
});

describe('live messages', () => {
  it('a notification is merged into the list and bumps the active count once', () => {
    const t = setup();
    handleLiveMessage(JSON.stringify(notification('7')), t);
    handleLiveMessage(JSON.stringify(notification('7')), t);
    handleLiveMessage(JSON.stringify(notification('12')), t);
    expect(t.notifications.get().list.map((n) => n.notificationId)).toEqual(['12', '7']);
    expect(t.notifications.get().active.count).toBe(2);
  });

  it('a workflow task updates the assigned list and replaces matching objects in the view', () => {
    const view: View = {
      $type: 'request',
      tasks: [
        { $type: 'requestTask', taskId: 't1', subject: 'old', extra: 1 },
        { $type: 'requestTask', taskId: 't2', subject: 'other' },
      ],
    };
    const t = setup('/requests/ABC251122QXT42', view);
    const untouched = (view.tasks as unknown[])[1];
    handleLiveMessage(JSON.stringify(task({ subject: 'new' })), t);
    expect(t.tasks.get().tasks.map((x) => x.taskId)).toEqual(['t1']);
    const tasks = t.view.get().view.tasks as Record<string, unknown>[];
    expect(tasks[0]).toMatchObject({ $type: 'requestTask', taskId: 't1', subject: 'new', extra: 1 });
    expect(tasks[1]).toBe(untouched);

    handleLiveMessage(JSON.stringify(task({ isAssignedTo: 'someone-else' })), t);
    expect(t.tasks.get().tasks).toEqual([]);
  });

  it('every kind of request change is handed to the page that follows the request', () => {
    const t = setup('/requests/ABC251122QXT42');
    const changes: unknown[] = [];
    const stop = onRequestChanged((c) => changes.push(c));
    handleLiveMessage(JSON.stringify({ $type: 'requestResult', requestNumber: 'XYZ251122AAA10' }), t);
    handleLiveMessage(JSON.stringify({ $type: 'requestCorrespondence', requestNumber: 'ABC251122QXT42' }), t);
    handleLiveMessage(JSON.stringify({ $type: 'requestTasks', requestNumber: 'ABC251122QXT42' }), t);
    handleLiveMessage(
      JSON.stringify({ $type: 'requestChanged', requestNumber: 'ABC251122QXT42', by: 'u2', version: 7 }),
      t,
    );
    stop();
    handleLiveMessage(
      JSON.stringify({ $type: 'requestChanged', requestNumber: 'ABC251122QXT42', by: null }),
      t,
    );
    expect(changes).toEqual([
      { requestNumber: 'XYZ251122AAA10', by: undefined },
      { requestNumber: 'ABC251122QXT42', by: undefined },
      { requestNumber: 'ABC251122QXT42', by: undefined },
      { requestNumber: 'ABC251122QXT42', by: 'u2', version: 7 },
    ]);
    // The shell itself fetches nothing: the page decides (it may be mid-edit).
    expect(t.get).not.toHaveBeenCalled();
  });

  it('a topic change reaches the page that follows that topic only', () => {
    const t = setup();
    const dashboard = vi.fn();
    const stop = followTopic('dashboard', dashboard);
    handleLiveMessage(JSON.stringify({ $type: 'topicChanged', topic: 'inbox:x' }), t);
    expect(dashboard).not.toHaveBeenCalled();
    handleLiveMessage(JSON.stringify({ $type: 'topicChanged', topic: 'dashboard' }), t);
    expect(dashboard).toHaveBeenCalledTimes(1);
    stop();
    handleLiveMessage(JSON.stringify({ $type: 'topicChanged', topic: 'dashboard' }), t);
    expect(dashboard).toHaveBeenCalledTimes(1);
  });

  it('a reconnect follows the topic again and tells followers to fetch afresh, not the first open', () => {
    const sent: unknown[] = [];
    setFollowSender((m) => sent.push(m));
    const stop = followTopic('dashboard', () => undefined);
    const reconnected = vi.fn();
    const stopListening = onLiveReconnected(reconnected);
    followReconnected(false);
    expect(reconnected).not.toHaveBeenCalled();
    followReconnected(true);
    expect(reconnected).toHaveBeenCalledTimes(1);
    stop();
    stopListening();
    setFollowSender(undefined);
    expect(sent).toEqual([
      { $type: 'following', topic: 'dashboard' },
      { $type: 'following', topic: 'dashboard' },
      { $type: 'following', topic: 'dashboard' },
      { $type: 'following', topic: null },
    ]);
  });

  it('parse failures are only logged', () => {
    const t = setup();
    expect(() => handleLiveMessage('{not json', t)).not.toThrow();
    handleLiveMessage(JSON.stringify({ no: 'type' }), t);
    expect(t.log.error).toHaveBeenCalledTimes(2);
  });

  it('matches request paths exactly', () => {
    expect(isRequestPath('/requests/ABC/', 'ABC')).toBe(true);
    expect(isRequestPath('/requests/ABCD', 'ABC')).toBe(false);
    expect(isRequestPath('/requests/ABC/results', 'ABC')).toBe(false);
  });
});
