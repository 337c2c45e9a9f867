import { type AdminRecipientsView, pagingQuerySchema, recipientFormSchema } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { permissionFirst, requirePermission } from '../auth/index.js';
import { createRecipient, getRecipientView, searchRecipients, updateRecipient } from './service.js';

const searchQuery = pagingQuerySchema.extend({
  name: z.string().max(200).optional(),
  phone: z.string().max(40).optional(),
  address: z.string().max(200).optional(),
  email: z.string().max(254).optional(),
});
const idParams = z.object({ recipientId: z.string().max(20) });

export function recipientRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/recipients', async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () => {
      const actor = requirePermission(request, 'recipient:view');
      return {
        $type: 'adminRecipients',
        title: 'Recipients',
        canCreateNew: actor.permissions.includes('recipient:edit'),
      } satisfies AdminRecipientsView;
    }),
  );

  r.get('/admin/recipients/search', { schema: { querystring: searchQuery } }, async (request) => {
    requirePermission(request, 'recipient:view');
    const { pageOffset, pageSize, ...terms } = request.query;
    return searchRecipients(deps.db, terms, { pageOffset, pageSize });
  });

  r.get('/admin/recipients/edit', async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getRecipientView(deps.db, requirePermission(request, 'recipient:edit'), undefined),
    ),
  );

  r.get('/admin/recipients/edit/:recipientId', { schema: { params: idParams } }, async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getRecipientView(deps.db, requirePermission(request, 'recipient:view'), request.params.recipientId),
    ),
  );

  r.post(
    '/admin/recipients/edit',
    { onRequest: permissionFirst('recipient:edit'), schema: { body: recipientFormSchema } },
    async (request) => {
      const actor = requirePermission(request, 'recipient:edit');
      return createRecipient(deps.db, deps.files, actor, request.body);
    },
  );

  r.post(
    '/admin/recipients/edit/:recipientId',
    { onRequest: permissionFirst('recipient:edit'), schema: { params: idParams, body: recipientFormSchema } },
    async (request) => {
      const actor = requirePermission(request, 'recipient:edit');
      return updateRecipient(deps.db, deps.files, actor, request.params.recipientId, request.body);
    },
  );
}
