import { type AdminPayeesView, pagingQuerySchema, payeeFormSchema } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { permissionFirst, requirePermission } from '../auth/index.js';
import { createPayee, getPayeeView, searchPayees, updatePayee } from './service.js';

const searchQuery = pagingQuerySchema.extend({
  name: z.string().max(200).optional(),
  referenceNumber: z.string().max(100).optional(),
  email: z.string().max(254).optional(),
  bankAccount: z.string().max(100).optional(),
});
const idParams = z.object({ payeeId: z.string().max(20) });

export function payeeRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/payees', async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () => {
      const actor = requirePermission(request, 'payee:view');
      return {
        $type: 'adminPayees',
        title: 'Payees',
        canCreateNew: actor.permissions.includes('payee:edit'),
      } satisfies AdminPayeesView;
    }),
  );

  r.get('/admin/payees/search', { schema: { querystring: searchQuery } }, async (request) => {
    requirePermission(request, 'payee:view');
    const { pageOffset, pageSize, ...terms } = request.query;
    return searchPayees(deps.db, terms, { pageOffset, pageSize });
  });

  r.get('/admin/payees/edit', async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getPayeeView(deps.db, requirePermission(request, 'payee:edit'), undefined),
    ),
  );

  r.get('/admin/payees/edit/:payeeId', { schema: { params: idParams } }, async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getPayeeView(deps.db, requirePermission(request, 'payee:view'), request.params.payeeId),
    ),
  );

  r.post(
    '/admin/payees/edit',
    { onRequest: permissionFirst('payee:edit'), schema: { body: payeeFormSchema } },
    async (request) => {
      const actor = requirePermission(request, 'payee:edit');
      return createPayee(deps.db, actor, request.body);
    },
  );

  r.post(
    '/admin/payees/edit/:payeeId',
    { onRequest: permissionFirst('payee:edit'), schema: { params: idParams, body: payeeFormSchema } },
    async (request) => {
      const actor = requirePermission(request, 'payee:edit');
      return updatePayee(deps.db, actor, request.params.payeeId, request.body, deps.live);
    },
  );
}
