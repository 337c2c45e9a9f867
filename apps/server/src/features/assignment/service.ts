import { isSenderTaskType, SENDER_TASK_TYPES, type WorkflowTaskType } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { LiveHub } from '../../live/hub.js';
import { getNearestScopeEntry } from '../configuration/effective.js';
import { DEFAULT_TASK_NOTICES, taskTypeName } from '../requests/tasks.js';
import { pushTask } from '../tasks/service.js';
import { workflowDueAt } from '../workflow/due.js';
import { completeTaskRow, insertWorkflowTask } from '../workflow/repository.js';
import { recordTaskAdded, recordTaskCompleted } from '../workflow/taskEvents.js';
import { chooseAssignee, type GroupingBehaviour } from './choose.js';
import * as repo from './repository.js';

// Task assignment (DESIGN.md "Assignment"). A task is assigned when it is created and again when
// its assignee can no longer take it (skills changed, user disabled). Candidates are enabled users
// trained and active for the task type holding a handling role in the task's assignWorkflowTaskScope
// (that of the nearest scope entry of the task's scope; the task's own scope when it has none).
//
// Fallback: a task nobody may take keeps its type and stays unassigned (so the rules that complete
// it by type keep working) and its request gets one open `fallback` task, assigned the same way,
// that says so. The fallback task is completed as soon as no task of the request is unassigned.
//
// The sender's tasks: a type nobody can be trained for (spec: "Trainable: all except
// senderActionRequired") is work for the request's sender, not for staff. It is assigned to nobody
// and raises no fallback; the sender's users see it on the request page (where they may complete
// it), in the requestTaskAdded notification and in the senderActionRequired mail.
//
// Every change of assignee is pushed live: the new assignee's list gains the task, the previous
// assignee's drops it. Pushes are NOTIFYs sent in the caller's transaction (delivered on commit).

export const REASSIGN_QUEUE = 'assignment.reassign';

/** One reassignment pass moves at most this many tasks (a user holds far fewer in practice). */
const REASSIGN_BATCH = 1000;

export interface AssignmentDeps {
  /** Absent where nothing listens (tests without sockets); the assignment still happens. */
  live?: LiveHub;
}

async function push(
  trx: DbOrTrx,
  deps: AssignmentDeps,
  row: Parameters<typeof pushTask>[2],
  previous: string | null,
) {
  if (deps.live) await pushTask(trx, deps.live, row, previous);
}

async function assignScopeOf(trx: DbOrTrx, scope: string) {
  const entry = await getNearestScopeEntry(trx, scope);
  return {
    assignScope: entry?.assignWorkflowTaskScope?.trim() || scope,
    grouping: (entry?.workflowTaskAssignerGroupingBehaviour ?? 'lax') as GroupingBehaviour,
  };
}

/** Decides who should hold an open task now; undefined when nobody may. */
async function decideAssignee(trx: DbOrTrx, task: repo.AssignableTask): Promise<string | undefined> {
  const { assignScope, grouping } = await assignScopeOf(trx, task.scope);
  const candidates = await repo.listCandidates(trx, {
    taskType: task.type,
    taskScope: task.scope,
    assignScope,
  });
  let holder: { userId: string; isCandidate: boolean } | undefined;
  if (task.request_number && grouping !== 'disabled') {
    const userId = await repo.findRequestHolder(trx, task.request_number, task.id);
    if (userId && (await repo.mayHandleScope(trx, userId, task.scope)))
      holder = { userId, isCandidate: candidates.some((c) => c.userId === userId) };
  }
  return chooseAssignee({ grouping, candidates, holder });
}

/**
 * Assigns (or reassigns) one open task and pushes the change. Answers the assignee, null when the
 * task went to the fallback. Call inside the transaction that created or changed the task.
 */
export async function assignTask(trx: DbOrTrx, deps: AssignmentDeps, taskId: string): Promise<string | null> {
  const task = await repo.lockTask(trx, taskId);
  if (!task || task.completed_at !== null) return null;
  const assignee = isSenderTaskType(task.type)
    ? null
    : ((await decideAssignee(trx, { ...task, completed_at: null })) ?? null);
  if (assignee !== task.assigned_to) {
    const row = await repo.setAssignee(trx, task.id, assignee);
    await push(trx, deps, row, task.assigned_to);
  }
  if (task.request_number && task.type !== 'fallback' && !isSenderTaskType(task.type))
    await syncFallback(trx, deps, task.request_number, task.scope);
  return assignee;
}

/**
 * Keeps the request's fallback task in step with its unassigned tasks: one open fallback task while
 * any task nobody may take is open, none otherwise. Call after assigning or completing a task.
 */
export async function syncFallback(trx: DbOrTrx, deps: AssignmentDeps, requestNumber: string, scope: string) {
  const unassigned = await repo.countUnassignedOpen(trx, requestNumber, SENDER_TASK_TYPES);
  const open = await repo.listOpenFallbackTasks(trx, requestNumber);
  if (unassigned > 0 && open.length === 0) {
    const request = await trx
      .selectFrom('requests')
      .select('applicant_name')
      .where('request_number', '=', requestNumber)
      .executeTakeFirst();
    const now = new Date();
    const type: WorkflowTaskType = 'fallback';
    const dueAt = await workflowDueAt(trx, scope, type, now);
    const notice = DEFAULT_TASK_NOTICES.fallback;
    const id = await insertWorkflowTask(trx, {
      type,
      subject: `${taskTypeName(type)}: ${request?.applicant_name ?? requestNumber}`,
      requestNumber,
      scope,
      notice,
      triggeredAt: now,
      triggeredBy: null,
      dueAt,
      // One per burst of unassigned work; a later burst gets a new one once this is done.
      workflowKey: `fallback:${requestNumber}:${now.getTime()}`,
    });
    if (id) {
      await assignTask(trx, deps, id);
      await recordTaskAdded(trx, deps.live, { id, type, requestNumber, dueAt, notice });
    }
  } else if (unassigned === 0) {
    for (const task of open) {
      const row = await completeTaskRow(trx, task.id, null, new Date());
      if (!row) continue;
      await push(trx, deps, row, null);
      await recordTaskCompleted(trx, deps.live, { id: row.id, type: row.type, requestNumber }, null);
    }
  }
}

/**
 * Completes an open task (a person or a rule did the work), pushes it, records request.taskCompleted
 * on its request (bySender: the request's sender did it) and settles the fallback.
 */
export async function completeTask(
  trx: DbOrTrx,
  deps: AssignmentDeps,
  taskId: string,
  by: string | null,
  at = new Date(),
  options: { bySender?: boolean } = {},
) {
  const row = await completeTaskRow(trx, taskId, by, at);
  if (!row) return undefined;
  await push(trx, deps, row, null);
  if (row.request_number)
    await recordTaskCompleted(
      trx,
      deps.live,
      { id: row.id, type: row.type, requestNumber: row.request_number },
      by,
      options,
    );
  if (row.request_number && row.type !== 'fallback') {
    const scope = await trx
      .selectFrom('tasks')
      .select('scope')
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    await syncFallback(trx, deps, row.request_number, scope.scope);
  }
  return row;
}

/**
 * Re-runs assignment around one user whose skills changed or who was disabled: the user's open
 * tasks that the user may no longer take move to someone else (or the fallback), and unassigned open
 * tasks of the types the user is now ready for are given out again. Pass the transaction of the
 * change: with a job queue the work runs as a job after the commit (with live pushes); without one
 * (tests, tools) it runs right here, without pushes unless `live` is given.
 */
export async function reassignOpenTasks(
  db: DbOrTrx,
  jobs: JobQueue | undefined,
  input: { userId: string },
  live?: LiveHub,
): Promise<void> {
  if (jobs) {
    await jobs.send(db, REASSIGN_QUEUE, { userId: input.userId });
    return;
  }
  await runReassignment(db, { live }, input.userId);
}

/** The reassignment itself (the job handler); answers how many tasks changed hands. */
export async function runReassignment(db: DbOrTrx, deps: AssignmentDeps, userId: string): Promise<number> {
  let moved = 0;
  for (const task of await repo.listOpenTaskIdsOf(db, userId, REASSIGN_BATCH)) {
    if ((await assignTask(db, deps, task.id)) !== userId) moved++;
  }
  const ready = await repo.readySkillsOf(db, userId);
  for (const task of await repo.listUnassignedOpenTaskIds(db, ready, REASSIGN_BATCH)) {
    if ((await assignTask(db, deps, task.id)) !== null) moved++;
  }
  return moved;
}
