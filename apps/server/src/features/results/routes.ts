import { resultActionRoute, resultPageRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { requireActor } from '../auth/index.js';
import { resultActions } from './actions.js';
import { runItemAction } from './itemActions.js';
import { findResult } from './repository.js';
import { getResultView } from './view.js';

export function resultRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, resultPageRoute, async ({ params }, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getResultView(deps, requireActor(request), params.requestNumber, params.resultId),
    ),
  );

  // Answers the result page as it is after the action.
  serve(app, resultActionRoute, async ({ params, body }, request) => {
    const actor = requireActor(request);
    const { requestNumber, resultId, action } = params;
    await runItemAction(deps, actor, {
      requestNumber,
      itemId: resultId,
      name: action,
      body,
      registry: resultActions,
      load: findResult,
    });
    return getResultView(deps, actor, requestNumber, resultId);
  });
}
