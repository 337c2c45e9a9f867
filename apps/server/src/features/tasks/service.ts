import type { AssignedTask, WorkflowTaskType } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import type { LiveHub } from '../../live/hub.js';
import type { Actor } from '../auth/index.js';
import * as repo from './repository.js';

// The assigned-tasks overlay shows at most this many; the task list pages show the rest.
const ASSIGNED_LIMIT = 100;

type Row = Awaited<ReturnType<typeof repo.listOpenAssignedTo>>[number];

export function toAssignedTask(row: Row, now = new Date()): AssignedTask {
  const open = row.completed_at === null;
  return {
    $type: 'workflowTask',
    taskId: row.id,
    type: row.type as WorkflowTaskType,
    subject: row.subject,
    requestNumber: row.request_number,
    messageId: row.message_id,
    // A completed task has no due date: that is how the client knows it is no longer active.
    dueAt: open ? (row.due_at?.toISOString() ?? null) : null,
    isOverdue: open && row.due_at !== null && row.due_at < now,
    isAssignedTo: row.assigned_to,
  };
}

/**
 * The actor's open tasks, of those it may work now (`workable`, from its roles): a task still
 * assigned to a user whose roles were just removed waits for the reassignment, unseen by that user.
 */
export async function listAssignedTasks(
  db: DbOrTrx,
  actor: Actor,
  workable: repo.Workable,
): Promise<AssignedTask[]> {
  return (await repo.listOpenAssignedTo(db, actor.id, workable, ASSIGNED_LIMIT)).map((row) =>
    toAssignedTask(row),
  );
}

/**
 * Tells the new assignee (and the previous one, whose list must drop it) about a task that was
 * assigned, reassigned or completed; call it inside the transaction that made the change.
 */
export async function pushTask(db: DbOrTrx, live: LiveHub, row: Row, previousAssignee: string | null) {
  const recipients = [row.assigned_to, previousAssignee].filter((u): u is string => u !== null);
  await live.publish(db, recipients, toAssignedTask(row));
}
