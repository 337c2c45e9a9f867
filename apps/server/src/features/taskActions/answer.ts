import type { RequestTaskItem } from '@dossier/core';
import type { AppDeps } from '../../http/deps.js';
import type { Actor } from '../auth/index.js';
import { loadRequestView } from '../requestPage/index.js';

// A task's action answers { task } (the task overlay, the dashboard and other callers rely on it).
// The request page asks with `?answer=request` and then gets the request view as it is after the
// commit beside the task, so the move costs it one round trip; a task without a request (an inbox
// message's) answers { task } either way.

export async function answerOf(
  deps: AppDeps,
  actor: Actor,
  wanted: 'request' | undefined,
  made: { task: RequestTaskItem },
) {
  if (wanted !== 'request' || !made.task.requestNumber) return made;
  return { ...made, ...(await loadRequestView(deps, actor, made.task.requestNumber)) };
}
