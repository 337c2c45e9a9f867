import { isSenderTaskType, SENDER_TASK_TYPES, type WorkflowTaskType } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { DbOrTrx, Trx } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { LiveHub } from '../../live/hub.js';
import { getNearestScopeEntry } from '../configuration/index.js';
import {
  completeTaskRow,
  DEFAULT_TASK_NOTICES,
  insertWorkflowTask,
  pushTask,
  pushTasksChanged,
  recordTaskAdded,
  recordTaskCompleted,
  taskTypeName,
  workflowDueAt,
} from '../tasks/index.js';
import { chooseAssignee, type GroupingBehaviour } from './choose.js';
import * as repo from './repository.js';

// Task assignment (docs/ARCHITECTURE.md "Assignment"). A task is assigned when it is created and again when
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
//
// People may also move a task by hand (features/taskActions/handover.ts): claim it, assign it to a named
// user or release it. Whoever takes a task that way must be a candidate by the same rule as the
// automatic assignment (listAssignableUsers), so a hand-made choice never breaks it.

export const REASSIGN_QUEUE = 'assignment.reassign';

/** One reassignment pass moves at most this many tasks (a user holds far fewer in practice). */
const REASSIGN_BATCH = 1000;

export interface AssignmentDeps {
  /** Absent where nothing listens (tests without sockets); the assignment still happens. */
  live?: LiveHub | undefined;
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

/**
 * Decides who should hold an open task now; undefined when nobody may. `exclude`: a user who must
 * not get it (who just handed it back), neither as a candidate nor as the request's holder.
 */
async function decideAssignee(
  trx: DbOrTrx,
  task: repo.AssignableTask,
  exclude?: string,
): Promise<string | undefined> {
  const { assignScope, grouping } = await assignScopeOf(trx, task.scope);
  const candidates = (
    await repo.listCandidates(trx, {
      taskType: task.type,
      taskScope: task.scope,
      assignScope,
    })
  ).filter((c) => c.userId !== exclude);
  let holder: { userId: string; isCandidate: boolean } | undefined;
  if (task.request_number && grouping !== 'disabled') {
    const userId = await repo.findRequestHolder(trx, task.request_number, task.id);
    if (userId && userId !== exclude && (await repo.mayHandleScope(trx, userId, task.scope)))
      holder = { userId, isCandidate: candidates.some((c) => c.userId === userId) };
  }
  return chooseAssignee({ grouping, candidates, holder });
}

/** What the candidate rule needs to know of a task. */
export type TaskToAssign = Pick<repo.AssignableTask, 'type' | 'scope' | 'request_number'>;

/**
 * The users who may be assigned the task (the candidate rule of the automatic assignment), with
 * their names and loads; `userIds` narrows the answer to those users.
 */
export async function listAssignableUsers(trx: DbOrTrx, task: TaskToAssign, userIds?: string[]) {
  if (isSenderTaskType(task.type)) return [];
  const { assignScope } = await assignScopeOf(trx, task.scope);
  return repo.listCandidates(trx, { taskType: task.type, taskScope: task.scope, assignScope, userIds });
}

/**
 * Why a user may not be assigned the task, in words for the person choosing; undefined when the
 * user may. The decision is listAssignableUsers'; the rest only finds which part of it failed.
 */
export async function whyNotAssignable(
  trx: DbOrTrx,
  task: TaskToAssign,
  userId: string,
): Promise<string | undefined> {
  const type = taskTypeName(task.type);
  if (isSenderTaskType(task.type)) return `${type} is the sender's task; it is not assigned to staff.`;
  if ((await listAssignableUsers(trx, task, [userId])).length > 0) return undefined;
  const user = await repo.findUserWithSkill(trx, userId, task.type);
  if (!user) return 'No such user.';
  if (user.disabled) return `${user.name} is disabled.`;
  // The role comes first: a skill is beside the point for someone who does not work the request.
  if (!(await repo.mayHandleScope(trx, userId, task.scope)))
    return `${user.name} does not work ${task.request_number ? 'requests' : 'tasks'} of ${task.scope}.`;
  if (user.level !== 'trained') return `${user.name} has no trained skill for ${type}.`;
  if (user.status !== 'active') return `${user.name}'s skill for ${type} is inactive.`;
  const { assignScope } = await assignScopeOf(trx, task.scope);
  return `${user.name} works outside ${assignScope}, where the tasks of ${task.scope} are assigned.`;
}

/**
 * Gives an open task to a user chosen by a person (who checked whyNotAssignable first), pushes the
 * change to the new and the previous assignee and settles the request's fallback.
 */
export async function assignTaskTo(trx: Trx, deps: AssignmentDeps, taskId: string, userId: string) {
  const task = await repo.lockTask(trx, taskId);
  if (!task) return undefined;
  const row = await repo.setAssignee(trx, task.id, userId);
  await push(trx, deps, row, task.assigned_to === userId ? null : task.assigned_to);
  if (task.request_number && task.type !== 'fallback' && !isSenderTaskType(task.type))
    await syncFallback(trx, deps, task.request_number, task.scope);
  return row;
}

/**
 * The assignee hands an open task back: it is unassigned (pushed to the releaser), then assigned
 * as usual but never to the releaser; when nobody else may take it, it waits with the fallback.
 * Answers the new assignee (null: nobody).
 */
export async function releaseTask(
  trx: Trx,
  deps: AssignmentDeps,
  taskId: string,
  releaser: string,
): Promise<string | null> {
  const row = await repo.setAssignee(trx, taskId, null);
  await push(trx, deps, row, releaser);
  return assignTask(trx, deps, taskId, { exclude: releaser });
}

/**
 * Assigns (or reassigns) one open task and pushes the change. Answers the assignee, null when the
 * task went to the fallback. Call inside the transaction that created or changed the task.
 */
export async function assignTask(
  trx: Trx,
  deps: AssignmentDeps,
  taskId: string,
  options: { exclude?: string } = {},
): Promise<string | null> {
  const task = await repo.lockTask(trx, taskId);
  if (!task || task.completed_at !== null) return null;
  const assignee = isSenderTaskType(task.type)
    ? null
    : ((await decideAssignee(trx, { ...task, completed_at: null }, options.exclude)) ?? null);
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
export async function syncFallback(trx: Trx, deps: AssignmentDeps, requestNumber: string, scope: string) {
  const unassigned = await repo.countUnassignedOpen(trx, requestNumber, SENDER_TASK_TYPES);
  const open = await repo.listOpenFallbackTasks(trx, requestNumber);
  if (unassigned > 0 && open.length === 0) {
    const applicantName = await repo.findApplicantName(trx, requestNumber);
    const now = new Date();
    const type: WorkflowTaskType = 'fallback';
    const dueAt = await workflowDueAt(trx, scope, type, now);
    const notice = DEFAULT_TASK_NOTICES.fallback;
    const id = await insertWorkflowTask(trx, {
      type,
      subject: `${taskTypeName(type)}: ${applicantName ?? requestNumber}`,
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
  trx: Trx,
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
    await syncFallback(trx, deps, row.request_number, await repo.taskScopeOf(trx, taskId));
  }
  return row;
}

/** Why a user's tasks are looked at again (named in the history line of each move). */
export type ReassignReason = 'skills' | 'roles';

/**
 * Re-runs assignment around one user whose skills or roles changed or who was disabled: the user's
 * open tasks that the user may no longer take move to someone else (or the fallback), and unassigned open
 * tasks of the types the user is now ready for are given out again. Pass the transaction of the
 * change: with a job queue the work runs as a job after the commit (with live pushes); without one
 * (tests, tools) it runs right here, without pushes unless `live` is given.
 */
export async function reassignOpenTasks(
  db: Trx,
  jobs: JobQueue | undefined,
  input: { userId: string; reason?: ReassignReason },
  live?: LiveHub,
): Promise<void> {
  if (jobs) {
    await jobs.send(db, REASSIGN_QUEUE, { userId: input.userId, reason: input.reason });
    return;
  }
  await runReassignment(db, { live }, input.userId, input.reason);
}

/**
 * The reassignment itself (the job handler); answers how many tasks changed hands. Each move is
 * written to its request's history, so the request shows why its task went elsewhere.
 */
export async function runReassignment(
  db: Trx,
  deps: AssignmentDeps,
  userId: string,
  reason: ReassignReason = 'skills',
): Promise<number> {
  let moved = 0;
  const user = await repo.findUserState(db, userId);
  const why = user?.disabled
    ? `${user.name} was disabled`
    : `the ${reason === 'roles' ? 'roles' : 'skills'} of ${user?.name ?? userId} changed`;
  for (const task of await repo.listOpenTaskIdsOf(db, userId, REASSIGN_BATCH)) {
    const to = await assignTask(db, deps, task.id);
    if (to === userId) continue;
    moved++;
    await recordReassigned(db, deps, task, userId, to, why);
  }
  const ready = await repo.readySkillsOf(db, userId);
  for (const task of await repo.listUnassignedOpenTaskIds(db, ready, REASSIGN_BATCH)) {
    const to = await assignTask(db, deps, task.id);
    if (to === null) continue;
    moved++;
    await recordReassigned(db, deps, task, null, to, why);
  }
  return moved;
}

/** request.taskReassigned: the assignment (not a person) moved a task; actor null, as for its adds. */
async function recordReassigned(
  db: Trx,
  deps: AssignmentDeps,
  task: { id: string; type: string; request_number: string | null },
  from: string | null,
  to: string | null,
  why: string,
) {
  if (!task.request_number) return;
  const names = await repo.userNames(
    db,
    [from, to].filter((u): u is string => u !== null),
  );
  const name = (id: string) => names.get(id) ?? id;
  const type = taskTypeName(task.type);
  const summary =
    from === null
      ? `The assignment gave ${type} to ${name(to as string)} (${why}).`
      : to === null
        ? `The assignment took ${type} from ${name(from)} (${why}); nobody else may take it, so it awaits assignment.`
        : `The assignment moved ${type} from ${name(from)} to ${name(to)} (${why}).`;
  await recordEvent(db, {
    type: 'request.taskReassigned',
    aggregateType: 'request',
    aggregateId: task.request_number,
    actor: null,
    payload: { summary, taskId: task.id, type: task.type, from, to },
  });
  await pushTasksChanged(db, deps.live, task.request_number);
}
