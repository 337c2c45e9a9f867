import { dateInTimeZone, hasNoDueDate } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { DbOrTrx, Trx } from '../../db/database.js';
import type { LiveHub } from '../../live/hub.js';
import { listViewers } from '../presence/index.js';
import { taskTypeName } from './requestTasks.js';

// Every task added to a request, and every completion, writes a request event in the transaction
// that made the change, whoever made it (a person, a workflow rule, the assignment's fallback):
//   request.taskAdded     { taskId, type, notice }             (the Add task action writes its own)
//   request.taskCompleted { taskId, type, bySender? }
// So the history shows the workflow's work, and the rules that react to tasks (the workflow mails
// workflowTaskTriggered / workflowTaskCompleted, the sender's answer) see every one of them. Whoever
// has the request open is told to reload it (a rule's task appears without a refresh).

interface TaskRef {
  id: string;
  type: string;
  requestNumber: string;
}

/** Tells the users who have the request open that its tasks changed (delivered after commit). */
export async function pushTasksChanged(trx: DbOrTrx, live: LiveHub | undefined, requestNumber: string) {
  if (!live) return;
  const viewers = await listViewers(trx, requestNumber);
  await live.publish(
    trx,
    viewers.map((v) => v.id),
    { $type: 'requestTasks', requestNumber },
  );
}

export async function recordTaskAdded(
  trx: Trx,
  live: LiveHub | undefined,
  task: TaskRef & { dueAt: Date; notice: string },
): Promise<void> {
  const iso = task.dueAt.toISOString();
  const due = hasNoDueDate(iso) ? 'no due date' : `due ${dateInTimeZone(task.dueAt)}`;
  await recordEvent(trx, {
    type: 'request.taskAdded',
    aggregateType: 'request',
    aggregateId: task.requestNumber,
    // The workflow's own doing, whoever caused the event it answered.
    actor: null,
    payload: {
      summary: `The workflow added the task ${taskTypeName(task.type)} (${due}).`,
      taskId: task.id,
      type: task.type,
      notice: task.notice,
    },
  });
  await pushTasksChanged(trx, live, task.requestNumber);
}

export async function recordTaskCompleted(
  trx: Trx,
  // Kept for the callers: completion pushes nothing of its own now (below).
  _live: LiveHub | undefined,
  task: TaskRef,
  by: string | null,
  options: { bySender?: boolean } = {},
): Promise<void> {
  await recordEvent(trx, {
    type: 'request.taskCompleted',
    aggregateType: 'request',
    aggregateId: task.requestNumber,
    actor: by,
    payload: {
      summary: `Completed the task ${taskTypeName(task.type)}.`,
      taskId: task.id,
      type: task.type,
      ...(options.bySender ? { bySender: true } : {}),
    },
  });
  // No requestTasks push: the event just recorded pushes requestChanged, with the request's version,
  // to the same viewers (presence/push.ts), and a page already holding the change skips the fetch.
}
