import { requestRecipientSchema } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { permissionFirst, requirePermission } from '../auth/index.js';
import { getSelectRecipientView, saveRequestRecipient } from './service.js';

const params = z.object({ requestNumber: z.string().max(40) });
const flag = z.enum(['1', 'true', '0', 'false']).transform((v) => v === '1' || v === 'true');

// The address carries the search: search.name … and search._trigger=1 to run it.
const viewQuery = z.object({
  enterNew: flag.optional(),
  'search.name': z.string().max(200).optional(),
  'search.phone': z.string().max(40).optional(),
  'search.address': z.string().max(200).optional(),
  'search.email': z.string().max(254).optional(),
  'search._trigger': flag.optional(),
  pageOffset: z.coerce.number().int().min(0).max(10_000).default(0),
});

const saveBody = z.object({
  /** The request's version the page was loaded with: a newer one means someone else changed it. */
  version: z.number().int().min(0),
  recipient: requestRecipientSchema,
});

export function selectRecipientRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/requests/:requestNumber/select-recipient',
    { schema: { params, querystring: viewQuery } },
    async (request, reply) =>
      sendSignedInPage(request, reply, deps.views, () => {
        const q = request.query;
        return getSelectRecipientView(
          deps.db,
          requirePermission(request, 'request:handle'),
          request.params.requestNumber,
          {
            enterNew: q.enterNew,
            name: q['search.name'],
            phone: q['search.phone'],
            address: q['search.address'],
            email: q['search.email'],
            trigger: q['search._trigger'],
            pageOffset: q.pageOffset,
          },
        );
      }),
  );

  r.post(
    '/requests/:requestNumber/recipient',
    { onRequest: permissionFirst('request:handle'), schema: { params, body: saveBody } },
    async (request) =>
      saveRequestRecipient(
        deps.db,
        requirePermission(request, 'request:handle'),
        request.params.requestNumber,
        request.body,
      ),
  );
}
