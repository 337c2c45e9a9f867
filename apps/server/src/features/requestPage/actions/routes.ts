import { requestActionRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../http/deps.js';
import { serve } from '../../../http/serve.js';
import { requireActor } from '../../auth/index.js';
import { loadVisibleRequest } from '../../requests/index.js';
import { buildRequestView } from '../view.js';
import { runRequestAction } from './run.js';

export function requestActionRoutes(app: FastifyInstance, deps: AppDeps): void {
  // Answers the request page as it is after the commit, as a part edit does, so the page needs no
  // second call; beside it, the ids of what the action made (taskId, resultId, …).
  serve(app, requestActionRoute, async ({ params, body }, request) => {
    const actor = requireActor(request);
    const { requestNumber, action } = params;
    const made = await runRequestAction(deps, actor, requestNumber, action, body);
    const row = await loadVisibleRequest(deps.db, actor, requestNumber);
    return { ...made, ...(await buildRequestView(deps, actor, row)) };
  });
}
