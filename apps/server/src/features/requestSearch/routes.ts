import { pagingQuerySchema } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { dateQuery, optional } from '../../http/query.js';
import { requirePermission } from '../auth/index.js';
import { TOTAL_CAP } from './repository.js';
import { getFindRequestsView, searchRequests } from './service.js';

export const requestSearchQuerySchema = pagingQuerySchema.extend({
  // Paging stops where counting stops: deeper pages would read (and sort) ever more rows.
  pageOffset: z.coerce.number().int().min(0).max(TOTAL_CAP).default(0),
  requestNumber: optional(z.string().max(40)),
  subject: optional(z.string().max(200)),
  recipient: optional(z.string().max(200)),
  submittedAtFrom: optional(dateQuery),
  submittedAtTo: optional(dateQuery),
  scope: optional(z.string().max(300)),
  q: optional(z.string().max(200)),
});

export function requestSearchRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/requests/find', async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getFindRequestsView(deps.db, requirePermission(request, 'request:view')),
    ),
  );

  r.get('/requests/search', { schema: { querystring: requestSearchQuerySchema } }, async (request) => {
    const actor = requirePermission(request, 'request:view');
    const { pageOffset, pageSize, ...terms } = request.query;
    return searchRequests(deps.db, actor, terms, { pageOffset, pageSize });
  });
}
