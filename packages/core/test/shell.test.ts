import { describe, expect, it } from 'vitest';
import {
  type AssignedTask,
  applyTaskPush,
  formatHttpError,
  hasNoDueDate,
  isUnauthorizedMessage,
  mergeNotifications,
  type Notification,
  requestNumberOfTarget,
  stripClientState,
  taskTarget,
} from '../src/index.js';

const notification = (id: number): Notification => ({
  $type: 'notification',
  notificationId: String(id),
  type: 'mention',
  target: `/requests/ACM251122QXT${id}/`,
  text: `n${id}`,
  createdAt: '2026-11-22T00:00:00Z',
  createdByDisplayName: null,
  acknowledgedAt: null,
});

const task = (over: Partial<AssignedTask>): AssignedTask => ({
  $type: 'workflowTask',
  taskId: '1',
  type: 'issueRequest',
  subject: 's',
  requestNumber: 'ACM251122QXT42',
  messageId: null,
  dueAt: '2026-11-30T00:00:00Z',
  isOverdue: false,
  isAssignedTo: 'alice',
  ...over,
});

describe('transport rules', () => {
  it('formats errors as status: message, falling back to the status text', () => {
    expect(formatHttpError(500, 'Boom')).toBe('500: Boom');
    expect(formatHttpError(502, '', 'Bad Gateway')).toBe('502: Bad Gateway');
    expect(isUnauthorizedMessage('401: Not signed in')).toBe(true);
    expect(isUnauthorizedMessage('403: Forbidden')).toBe(false);
  });

  it('drops $ properties except the type marker, deeply', () => {
    expect(
      stripClientState({ $type: 'x', $dirty: true, a: [{ $loading: 1, b: 2 }], d: new Date(0) }),
    ).toEqual({
      $type: 'x',
      a: [{ b: 2 }],
      d: new Date(0),
    });
  });
});

describe('notifications', () => {
  it('keeps the 20 most recent, newest first by id, without repeats', () => {
    const current = Array.from({ length: 15 }, (_, i) => notification(i + 1));
    const incoming = Array.from({ length: 15 }, (_, i) => notification(i + 10));
    const merged = mergeNotifications(current, incoming);
    expect(merged.map((n) => Number(n.notificationId))).toEqual(Array.from({ length: 20 }, (_, i) => 24 - i));
  });

  it('orders ids numerically, not as text', () => {
    expect(mergeNotifications([notification(9)], [notification(10)]).map((n) => n.notificationId)).toEqual([
      '10',
      '9',
    ]);
  });

  it('finds the request number in a target', () => {
    expect(requestNumberOfTarget('/requests/ACM251122QXT42/')).toBe('ACM251122QXT42');
    expect(requestNumberOfTarget('/request/ACM251122QXT42/notes')).toBe('ACM251122QXT42');
    expect(requestNumberOfTarget('/inbox/')).toBeUndefined();
  });
});

describe('assigned tasks', () => {
  it('adds a task assigned to the user and removes one assigned elsewhere or completed', () => {
    const added = applyTaskPush([], task({}), 'alice');
    expect(added).toHaveLength(1);
    expect(applyTaskPush(added, task({ isAssignedTo: 'bob' }), 'alice')).toEqual([]);
    expect(applyTaskPush(added, task({ dueAt: null }), 'alice')).toEqual([]);
    expect(applyTaskPush(added, task({ subject: 'new' }), 'alice')[0]?.subject).toBe('new');
  });

  it('links to the request, or to the inbox message', () => {
    expect(taskTarget({ requestNumber: 'ACM251122QXT42', messageId: null })).toBe('/requests/ACM251122QXT42');
    expect(taskTarget({ requestNumber: null, messageId: '<a@b>' })).toBe('/inbox/messages/%3Ca%40b%3E');
  });

  it('knows 9999-12-31 means no due date', () => {
    expect(hasNoDueDate('9999-12-31T00:00:00.000Z')).toBe(true);
    expect(hasNoDueDate('2026-12-31')).toBe(false);
  });
});
