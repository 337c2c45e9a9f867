import {
  completeTaskRoute,
  isSenderTaskType,
  isWithinScope,
  markTaskInProgressRoute,
  type RequestEventName,
  type RequestTaskItem,
} from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import { recordEvent } from '../../audit/events.js';
import type { DbOrTrx, Trx } from '../../db/database.js';
import type { AppDeps } from '../../http/deps.js';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import { serve } from '../../http/serve.js';
import { completeTask } from '../assignment/index.js';
import { type Actor, requireActor, scopesWithPermission } from '../auth/index.js';
import {
  canHandleRequest,
  canViewRequest,
  findRequest,
  isRequestSender,
  touchRequest,
  visibleScopes,
} from '../requests/index.js';
import { mayAssignTask, pushTask, taskTypeName, toRequestTaskItem, type Workable } from '../tasks/index.js';
import { findInvoiceState, findResultState } from '../workflow/index.js';
import * as repo from './actionsRepository.js';
import { answerOf } from './answer.js';

// Task actions: POST /tasks/{taskId}/complete and /tasks/{taskId}/mark-in-progress, no
// payload, answer { task }. Offer rules (the same as the list item's canNotComplete and
// canNotMarkInProgress): Complete unless the task is completed; Mark In Progress only for an open
// senderActionRequired task not yet in progress. Who: a handler of the task's request; a task
// without a request (an inbox message's) needs the inbox permission in its scope. Being its assignee
// grants nothing by itself (issue 32): the roles are read as they are now (the session cache drops
// an actor on any change of roles, on every instance), so a user whose roles were removed is
// refused the task it still holds until the reassignment takes it (workable below, for lists).
// The request's sender side may also complete the sender's own task (senderActionRequired): that is
// its answer, to which the workflow adds a senderActionResponse task for staff.
// The request row is locked first, as request actions do, so the request's events keep their order.
// A task that stands for work (a result to quality-assure, an invoice to pay) is completed by that
// work (workflow rules); completing it by hand while the work is still open is refused (409), or
// the work would be left with no task asking for it.

const TASK_ID = /^\d{1,18}$/;

/** The tasks the actor may work, as a filter for lists: the same rule as loadForAction's canHandle. */
export function workableBy(actor: Actor): Workable {
  return {
    requests: visibleScopes(actor, 'request:handle'),
    inboxScopes: scopesWithPermission(actor, 'inbox'),
  };
}

export interface Loaded {
  task: NonNullable<Awaited<ReturnType<typeof repo.findTaskForAction>>>;
  canHandle: boolean;
  /** The actor may view the task's request (false for a task without one), decided before any write. */
  canView: boolean;
  /** The actor is the request's sender side and the task is the sender's own. */
  answersAsSender: boolean;
  /** The actor may give the task to others (policy.ts). */
  mayAssign: boolean;
}

/**
 * The task of an action, locked with its request (unless `forUpdate: false`, for reads), and what
 * the actor may do with it; 404 for no such task, 403 for an actor who may not work it.
 * `managerMayAct`: a manager of the task's scope may use the action without handling the request.
 */
export async function loadForAction(
  trx: DbOrTrx,
  actor: Actor,
  taskId: string,
  options: { senderMayAct: boolean; managerMayAct?: boolean; forUpdate?: boolean },
): Promise<Loaded> {
  const forUpdate = options.forUpdate ?? true;
  if (!TASK_ID.test(taskId)) throw notFound('No such task.');
  const peek = await repo.findTaskForAction(trx, taskId);
  if (!peek) throw notFound('No such task.');
  let canHandle: boolean;
  let isSender = false;
  let canView = false;
  if (peek.request_number) {
    const request = await findRequest(trx, peek.request_number, { forUpdate });
    canHandle = request !== undefined && canHandleRequest(actor, request);
    isSender = request !== undefined && isRequestSender(actor, request);
    canView = request !== undefined && canViewRequest(actor, request);
  } else {
    canHandle = scopesWithPermission(actor, 'inbox').some((s) => isWithinScope(peek.scope, s));
  }
  const task = await repo.findTaskForAction(trx, taskId, { forUpdate });
  if (!task) throw notFound('No such task.');
  const answersAsSender = options.senderMayAct && isSender && isSenderTaskType(task.type);
  const mayAssign = mayAssignTask(actor, task.scope, canHandle);
  const managerActs = options.managerMayAct === true && mayAssign;
  if (!canHandle && !answersAsSender && !managerActs)
    throw forbidden('You may not work the tasks of this request.');
  return { task, canHandle, canView, answersAsSender, mayAssign };
}

export async function taskItem(
  db: DbOrTrx,
  actor: Actor,
  taskId: string,
  canHandle: boolean,
): Promise<RequestTaskItem> {
  return toRequestTaskItem(await repo.findTaskItemRow(db, taskId), actor, canHandle, new Date());
}

export async function recordTaskEvent(
  trx: Trx,
  actor: Actor,
  requestNumber: string,
  type: RequestEventName,
  payload: object,
) {
  await recordEvent(trx, {
    type,
    aggregateType: 'request',
    aggregateId: requestNumber,
    actor: actor.id,
    payload,
  });
  await touchRequest(trx, requestNumber, actor.id);
}

export async function completeTaskAction(deps: AppDeps, actor: Actor, taskId: string) {
  return deps.db.transaction().execute(async (trx) => {
    const { task, canHandle, canView, answersAsSender } = await loadForAction(trx, actor, taskId, {
      senderMayAct: true,
    });
    if (task.completed_at) throw conflict('The task is already completed.');
    const open = await openWorkOf(trx, task.workflow_key);
    if (open) throw conflict(open);
    const now = new Date();
    // completeTask records request.taskCompleted; bySender lets the workflow see the answer.
    const row = await completeTask(trx, { live: deps.live }, task.id, actor.id, now, {
      bySender: answersAsSender,
    });
    if (!row) throw conflict('The task is already completed.');
    if (task.request_number) await touchRequest(trx, task.request_number, actor.id, now);
    return { task: await taskItem(trx, actor, task.id, canHandle), canView };
  });
}

export async function markTaskInProgressAction(deps: AppDeps, actor: Actor, taskId: string) {
  return deps.db.transaction().execute(async (trx) => {
    const { task, canHandle, canView } = await loadForAction(trx, actor, taskId, { senderMayAct: false });
    if (task.completed_at) throw conflict('The task is already completed.');
    if (task.type !== 'senderActionRequired')
      throw conflict('Only a Sender Action Required task can be marked in progress.');
    if (task.marked_in_progress_at) throw conflict('The task is already in progress.');
    if (!canHandle) throw forbidden('You may not work the tasks of this request.');
    const row = await repo.markInProgress(trx, task.id, actor.id, new Date());
    if (!row) throw conflict('The task is already in progress.');
    await pushTask(trx, deps.live, row, null);
    if (task.request_number)
      await recordTaskEvent(trx, actor, task.request_number, 'request.taskMarkedInProgress', {
        summary: `Marked the task ${taskTypeName(task.type)} in progress.`,
        taskId: task.id,
        type: task.type,
      });
    return { task: await taskItem(trx, actor, task.id, canHandle), canView };
  });
}

/** Why a task may not be completed by hand yet: the work it stands for is still open. */
async function openWorkOf(trx: DbOrTrx, workflowKey: string | null): Promise<string | undefined> {
  const [kind, , id] = workflowKey?.split(':') ?? [];
  if (kind === 'qualityAssureResult' && id) {
    const result = await findResultState(trx, id);
    if (result && !result.quality_assured_at && !result.quality_assurance_skipped && !result.discarded_at)
      return 'Quality-assure or discard the result first.';
  }
  if (kind === 'payInvoice' && id) {
    const invoice = await findInvoiceState(trx, id);
    if (invoice && !invoice.paid_at && !invoice.discarded_at) return 'Pay or discard the invoice first.';
  }
  return undefined;
}

export function taskActionRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, completeTaskRoute, async ({ params, query }, request) => {
    const actor = requireActor(request);
    const made = await completeTaskAction(deps, actor, params.taskId);
    return answerOf(deps, actor, query.answer, made);
  });
  serve(app, markTaskInProgressRoute, async ({ params, query }, request) => {
    const actor = requireActor(request);
    const made = await markTaskInProgressAction(deps, actor, params.taskId);
    return answerOf(deps, actor, query.answer, made);
  });
}
