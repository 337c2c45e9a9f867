import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../../app.js';
import { requireActor } from '../../auth/index.js';
import { loadVisibleRequest } from '../../requests/index.js';
import { buildRequestView } from '../view.js';
import { runRequestAction } from './run.js';

const params = z.object({ requestNumber: z.string().max(20), action: z.string().max(50) });

export function requestActionRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Answers the request page as it is after the commit, as a part edit does, so the page needs no
  // second call; beside it, the ids of what the action made (taskId, resultId, …).
  r.post('/requests/:requestNumber/actions/:action', { schema: { params } }, async (request) => {
    const actor = requireActor(request);
    const { requestNumber, action } = request.params;
    const made = await runRequestAction(deps, actor, requestNumber, action, request.body);
    const row = await loadVisibleRequest(deps.db, actor, requestNumber);
    return { ...made, ...(await buildRequestView(deps, actor, row)) };
  });
}
