import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { requireActor } from '../auth/index.js';
import { resultActions } from './actions.js';
import { runItemAction } from './itemActions.js';
import { findResult } from './repository.js';
import { getResultView } from './view.js';

const params = z.object({ requestNumber: z.string().max(20), resultId: z.string().max(40) });
const actionParams = params.extend({ action: z.string().max(50) });

export function resultRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/requests/:requestNumber/results/:resultId', { schema: { params } }, async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getResultView(deps, requireActor(request), request.params.requestNumber, request.params.resultId),
    ),
  );

  // Answers the result page as it is after the action.
  r.post(
    '/requests/:requestNumber/results/:resultId/actions/:action',
    { schema: { params: actionParams } },
    async (request) => {
      const actor = requireActor(request);
      const { requestNumber, resultId, action } = request.params;
      await runItemAction(deps, actor, {
        requestNumber,
        itemId: resultId,
        name: action,
        body: request.body,
        registry: resultActions,
        load: findResult,
      });
      return getResultView(deps, actor, requestNumber, resultId);
    },
  );
}
