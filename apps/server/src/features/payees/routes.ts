import {
  type AdminPayeesView,
  adminPayeesRoute,
  createPayeeRoute,
  newPayeeRoute,
  payeeRoute,
  searchPayeesRoute,
  updatePayeeRoute,
} from '@dossier/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { permissionFirst, requirePermission } from '../auth/index.js';
import { assertMayEditPayee, createPayee, getPayeeView, searchPayees, updatePayee } from './service.js';

export function payeeRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, adminPayeesRoute, async (_, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () => {
      const actor = requirePermission(request, 'payee:view');
      return {
        $type: 'adminPayees',
        title: 'Payees',
        canCreateNew: actor.permissions.includes('payee:edit'),
      } satisfies AdminPayeesView;
    }),
  );

  serve(app, searchPayeesRoute, async ({ query }, request) => {
    requirePermission(request, 'payee:view');
    const { pageOffset, pageSize, ...terms } = query;
    return searchPayees(deps.db, terms, { pageOffset, pageSize });
  });

  serve(app, newPayeeRoute, async (_, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getPayeeView(deps.db, requirePermission(request, 'payee:edit'), undefined),
    ),
  );

  serve(app, payeeRoute, async ({ params }, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getPayeeView(deps.db, requirePermission(request, 'payee:view'), params.payeeId),
    ),
  );

  serve(
    app,
    createPayeeRoute,
    async ({ body }, request) => createPayee(deps.db, requirePermission(request, 'payee:edit'), body),
    { onRequest: permissionFirst('payee:edit') },
  );

  // The body's rules are checked when it is validated: whose payee it is, before that.
  serve(
    app,
    updatePayeeRoute,
    async ({ params, body }, request) =>
      updatePayee(deps.db, requirePermission(request, 'payee:edit'), params.payeeId, body, deps.live),
    {
      onRequest: async (request: FastifyRequest) => {
        const actor = requirePermission(request, 'payee:edit');
        const params = updatePayeeRoute.params?.safeParse(request.params);
        // A malformed id is answered by the params' validation (400).
        if (params?.success) await assertMayEditPayee(deps.db, actor, params.data.payeeId);
      },
    },
  );
}
