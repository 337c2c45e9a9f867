import type { RequestTaskItem } from '@dossier/core';
import type { AppDeps } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { loadRequestView } from '../requestPage/index.js';

// A task's action answers { task } (the task overlay, the dashboard and other callers rely on it).
// The request page asks with `?answer=request` and then gets the request view as it is after the
// commit beside the task, so the move costs it one round trip; a task without a request (an inbox
// message's) answers { task } either way.
// Everything that decides the answer is decided before the commit (issue 32): the action says
// whether the actor may view the request (`canView`, read with the task under its lock). Whoever may
// act on a task but not view its request gets { task } alone, 200: a committed change is never
// answered with a refusal, which would tell the caller it did not happen. Should the view still be
// refused after the commit (a change in between), the answer is { task } too.

export interface Made {
  task: RequestTaskItem;
  /** The actor may view the task's request, as decided before the commit. */
  canView: boolean;
}

export async function answerOf(deps: AppDeps, actor: Actor, wanted: 'request' | undefined, made: Made) {
  const { task, canView } = made;
  if (wanted !== 'request' || !task.requestNumber || !canView) return { task };
  try {
    return { task, ...(await loadRequestView(deps, actor, task.requestNumber)) };
  } catch (error) {
    if (error instanceof HttpError && (error.status === 403 || error.status === 404)) return { task };
    throw error;
  }
}
