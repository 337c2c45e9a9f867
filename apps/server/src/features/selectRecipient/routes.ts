import { saveRecipientRoute, selectRecipientRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { permissionFirst, requirePermission } from '../auth/index.js';
import { getSelectRecipientView, saveRequestRecipient } from './service.js';

export function selectRecipientRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, selectRecipientRoute, async ({ params, query: q }, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getSelectRecipientView(deps.db, requirePermission(request, 'request:handle'), params.requestNumber, {
        enterNew: q.enterNew,
        name: q['search.name'],
        phone: q['search.phone'],
        address: q['search.address'],
        email: q['search.email'],
        trigger: q['search._trigger'],
        pageOffset: q.pageOffset,
      }),
    ),
  );

  serve(
    app,
    saveRecipientRoute,
    async ({ params, body }, request) =>
      saveRequestRecipient(deps.db, requirePermission(request, 'request:handle'), params.requestNumber, body),
    { onRequest: permissionFirst('request:handle') },
  );
}
