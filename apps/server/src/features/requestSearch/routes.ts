import { findRequestsRoute, requestSearchRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { requirePermission } from '../auth/index.js';
import { getFindRequestsView, searchRequests } from './service.js';

export function requestSearchRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, findRequestsRoute, async (_input, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getFindRequestsView(deps.db, requirePermission(request, 'request:view')),
    ),
  );

  serve(app, requestSearchRoute, async ({ query }, request) => {
    const actor = requirePermission(request, 'request:view');
    const { pageOffset, pageSize, ...terms } = query;
    return searchRequests(deps.db, actor, terms, { pageOffset, pageSize });
  });
}
