import {
  assignTaskRoute,
  claimTaskRoute,
  releaseTaskRoute,
  type TaskAssignee,
  taskAssigneesRoute,
} from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { DbOrTrx, Trx } from '../../db/database.js';
import type { AppDeps } from '../../http/deps.js';
import { badRequest, conflict, forbidden } from '../../http/errors.js';
import { serve } from '../../http/serve.js';
import {
  assignTaskTo,
  listAssignableUsers,
  releaseTask,
  userNames,
  whyNotAssignable,
} from '../assignment/index.js';
import type { Actor } from '../auth/index.js';
import { requireActor, signedInOnly } from '../auth/index.js';
import { isMovable, MAY_NOT_ASSIGN, NOT_YOURS, taskTypeName } from '../tasks/index.js';
import { type Loaded, loadForAction, recordTaskEvent, taskItem } from './actions.js';
import { answerOf } from './answer.js';

// Moving a task by hand (issue 22 item 5), who may do what being policy.ts':
//   POST /tasks/{taskId}/claim             the actor takes it               -> { task }
//   POST /tasks/{taskId}/assign {userId}   a named user gets it             -> { task }
//   POST /tasks/{taskId}/release           the assignee hands it back       -> { task }
//   GET  /tasks/{taskId}/assignees         whom it may go to (the picker)   -> { assignees }
// Each POST answers the request view beside { task } when asked with ?answer=request (answer.ts).
// Whoever gets a task must be a candidate by the automatic assignment's own rule, and a refusal
// says why in words (whyNotAssignable). Each move writes a request event (request.taskClaimed,
// request.taskAssigned, request.taskReleased) and is pushed to the new and the previous assignee.

type Task = Loaded['task'];

/** 409 for a task nobody moves: completed, or the sender's own. */
function refuseUnmovable(task: Task) {
  if (task.completed_at) throw conflict('The task is already completed.');
  if (!isMovable(task))
    throw conflict(`${taskTypeName(task.type)} is the sender's task; it is not assigned to staff.`);
}

async function nameOf(db: DbOrTrx, userId: string | null): Promise<string | null> {
  if (userId === null) return null;
  return (await userNames(db, [userId])).get(userId) ?? userId;
}

/** The request's history line of a move, which also tells whoever has the request open. */
async function recordMove(
  trx: Trx,
  actor: Actor,
  task: Task,
  type: 'request.taskClaimed' | 'request.taskAssigned' | 'request.taskReleased',
  summary: string,
  move: { from: string | null; to: string | null },
) {
  if (!task.request_number) return;
  await recordTaskEvent(trx, actor, task.request_number, type, {
    summary,
    taskId: task.id,
    type: task.type,
    ...move,
  });
  // The event pushes requestChanged with the version to whoever has the request open; a second,
  // versionless push would make the mover's page fetch the view its answer already holds.
}

export async function claimTaskAction(deps: AppDeps, actor: Actor, taskId: string) {
  return deps.db.transaction().execute(async (trx) => {
    const { task, canHandle, canView } = await loadForAction(trx, actor, taskId, { senderMayAct: false });
    refuseUnmovable(task);
    if (task.assigned_to === actor.id) throw conflict('The task is already assigned to you.');
    const why = await whyNotAssignable(trx, task, actor.id);
    if (why) throw forbidden(why);
    await assignTaskTo(trx, deps, task.id, actor.id);
    const previous = await nameOf(trx, task.assigned_to);
    const type = taskTypeName(task.type);
    await recordMove(
      trx,
      actor,
      task,
      'request.taskClaimed',
      previous ? `${actor.name} claimed ${type} from ${previous}.` : `${actor.name} claimed ${type}.`,
      { from: task.assigned_to, to: actor.id },
    );
    return { task: await taskItem(trx, actor, task.id, canHandle), canView };
  });
}

export async function assignTaskAction(deps: AppDeps, actor: Actor, taskId: string, userId: string) {
  return deps.db.transaction().execute(async (trx) => {
    const { task, canHandle, canView, mayAssign } = await loadForAction(trx, actor, taskId, {
      senderMayAct: false,
      managerMayAct: true,
    });
    refuseUnmovable(task);
    if (!mayAssign) throw forbidden(MAY_NOT_ASSIGN);
    userId = userId.trim();
    if (!userId) throw badRequest('Choose a user.', { userId: 'Choose a user.' });
    if (task.assigned_to === userId) {
      const message = `The task is already assigned to ${await nameOf(trx, userId)}.`;
      throw badRequest(message, { userId: message });
    }
    const why = await whyNotAssignable(trx, task, userId);
    if (why) throw badRequest(why, { userId: why });
    await assignTaskTo(trx, deps, task.id, userId);
    await recordMove(
      trx,
      actor,
      task,
      'request.taskAssigned',
      `${actor.name} assigned ${taskTypeName(task.type)} to ${await nameOf(trx, userId)}.`,
      { from: task.assigned_to, to: userId },
    );
    return { task: await taskItem(trx, actor, task.id, canHandle), canView };
  });
}

export async function releaseTaskAction(deps: AppDeps, actor: Actor, taskId: string) {
  return deps.db.transaction().execute(async (trx) => {
    const { task, canHandle, canView } = await loadForAction(trx, actor, taskId, { senderMayAct: false });
    refuseUnmovable(task);
    if (task.assigned_to !== actor.id) throw conflict(NOT_YOURS);
    const to = await releaseTask(trx, deps, task.id, actor.id);
    const type = taskTypeName(task.type);
    await recordMove(
      trx,
      actor,
      task,
      'request.taskReleased',
      to
        ? `${actor.name} released ${type}; it went to ${await nameOf(trx, to)}.`
        : `${actor.name} released ${type}; nobody else may take it, so it awaits assignment.`,
      { from: actor.id, to },
    );
    return { task: await taskItem(trx, actor, task.id, canHandle), canView };
  });
}

export async function listAssigneesAction(
  deps: AppDeps,
  actor: Actor,
  taskId: string,
): Promise<{ assignees: TaskAssignee[] }> {
  return deps.db.transaction().execute(async (trx) => {
    const { task, mayAssign } = await loadForAction(trx, actor, taskId, {
      senderMayAct: false,
      managerMayAct: true,
      forUpdate: false,
    });
    refuseUnmovable(task);
    if (!mayAssign) throw forbidden(MAY_NOT_ASSIGN);
    const users = await listAssignableUsers(trx, task);
    return {
      assignees: users
        .map((u) => ({
          userId: u.userId,
          name: u.name,
          openTasks: u.openTasks,
          isAssignee: u.userId === task.assigned_to,
        }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.userId.localeCompare(b.userId)),
    };
  });
}

export function taskHandoverRoutes(app: FastifyInstance, deps: AppDeps): void {
  const options = { onRequest: signedInOnly };
  serve(
    app,
    claimTaskRoute,
    async ({ params, query }, request) => {
      const actor = requireActor(request);
      const made = await claimTaskAction(deps, actor, params.taskId);
      return answerOf(deps, actor, query.answer, made);
    },
    options,
  );
  serve(
    app,
    assignTaskRoute,
    async ({ params, query, body }, request) => {
      const actor = requireActor(request);
      const made = await assignTaskAction(deps, actor, params.taskId, body.userId);
      return answerOf(deps, actor, query.answer, made);
    },
    options,
  );
  serve(
    app,
    releaseTaskRoute,
    async ({ params, query }, request) => {
      const actor = requireActor(request);
      const made = await releaseTaskAction(deps, actor, params.taskId);
      return answerOf(deps, actor, query.answer, made);
    },
    options,
  );
  serve(
    app,
    taskAssigneesRoute,
    async ({ params }, request) => listAssigneesAction(deps, requireActor(request), params.taskId),
    options,
  );
}
