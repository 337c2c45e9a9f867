import type { WorkflowTaskType } from '@dossier/core';
import type { Trx } from '../../db/database.js';
import { type AssignmentDeps, assignTask, completeTask } from '../assignment/index.js';
import {
  DEFAULT_TASK_NOTICES,
  insertWorkflowTask,
  recordTaskAdded,
  taskTypeName,
  workflowDueAt,
} from '../tasks/index.js';
import { lockOpenTasksOfRequest, type WorkflowRequest } from './repository.js';

// The two things rules do to tasks: add one (due date from the task type settings and the scope's
// holidays, then assigned and pushed, and a request.taskAdded event) and complete the open ones of a
// kind (each with a request.taskCompleted event, written by completeTask).

export interface AddWorkflowTask {
  type: WorkflowTaskType;
  request: Pick<WorkflowRequest, 'request_number' | 'scope' | 'applicant_name'>;
  /** What the task is about, unique among all tasks: a rule run twice adds it once. */
  key: string;
  triggeredAt: Date;
  triggeredBy: string | null;
  notice?: string;
  /** A due date the rule decides itself (kept when holidays change). */
  dueAt?: Date;
}

/** Adds a workflow task and assigns it; answers its id, or undefined when it existed already. */
export async function addWorkflowTask(
  trx: Trx,
  deps: AssignmentDeps,
  task: AddWorkflowTask,
): Promise<string | undefined> {
  const { request } = task;
  const notice = task.notice ?? DEFAULT_TASK_NOTICES[task.type];
  const dueAt = task.dueAt ?? (await workflowDueAt(trx, request.scope, task.type, task.triggeredAt));
  const id = await insertWorkflowTask(trx, {
    type: task.type,
    subject: `${taskTypeName(task.type)}: ${request.applicant_name}`,
    requestNumber: request.request_number,
    scope: request.scope,
    notice,
    triggeredAt: task.triggeredAt,
    triggeredBy: task.triggeredBy,
    dueAt,
    dueFixed: task.dueAt !== undefined,
    workflowKey: task.key,
  });
  if (!id) return undefined;
  await assignTask(trx, deps, id);
  await recordTaskAdded(trx, deps.live, {
    id,
    type: task.type,
    requestNumber: request.request_number,
    dueAt,
    notice,
  });
  return id;
}

/** Completes the request's open tasks of the given types (or with the key); answers how many. */
export async function completeOpenTasks(
  trx: Trx,
  deps: AssignmentDeps,
  requestNumber: string,
  filter: { types?: WorkflowTaskType[]; workflowKey?: string },
  by: string | null,
  at: Date,
  options: { bySender?: boolean } = {},
): Promise<number> {
  let done = 0;
  for (const task of await lockOpenTasksOfRequest(trx, requestNumber, filter)) {
    if (await completeTask(trx, deps, task.id, by, at, options)) done++;
  }
  return done;
}
