import { type DashboardView, WORKFLOW_TASK_TYPES } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { optional } from '../../http/query.js';
import { hasPermission, requireActor } from '../auth/index.js';
import { COUNT_CAP, DASHBOARD_TILES } from './repository.js';
import { DUE_VALUES, getDashboardTile, listSelectableOwners } from './service.js';

export const dashboardQuerySchema = z.object({
  // Paging stops where counting stops.
  pageOffset: z.coerce.number().int().min(0).max(COUNT_CAP).default(0),
  pageSize: z.coerce.number().int().min(1).max(50).default(10),
  due: optional(z.enum(DUE_VALUES, { message: 'Choose today, tomorrow or dayAfterTomorrow.' })),
  owner: z.preprocess(
    (v) => (v === '' || v === undefined ? 'all' : v),
    z.string().max(100, 'Choose an owner from the list.'),
  ),
  'filter.taskType': optional(z.enum(['all', ...WORKFLOW_TASK_TYPES], { message: 'Unknown task type.' })),
  'filter.requestStatus': optional(
    z.enum(['submitted', 'open', 'closed'], { message: 'Choose submitted, open or closed.' }),
  ),
  'filter.key': optional(z.string().max(300)),
});

export function dashboardRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/dashboard', async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, async () => {
      const actor = requireActor(request);
      return {
        $type: 'dashboard',
        title: 'Dashboard',
        tiles: [...DASHBOARD_TILES],
        canShowMine: hasPermission(actor, 'request:submit'),
        selectableOwners: await listSelectableOwners(deps.db, actor),
        countCap: COUNT_CAP,
      } satisfies DashboardView;
    }),
  );

  r.get(
    '/dashboard/:bind',
    { schema: { params: z.object({ bind: z.enum(DASHBOARD_TILES) }), querystring: dashboardQuerySchema } },
    async (request) => {
      const actor = requireActor(request);
      const q = request.query;
      return getDashboardTile(deps.db, actor, request.params.bind, {
        pageOffset: q.pageOffset,
        pageSize: q.pageSize,
        due: q.due,
        owner: q.owner,
        taskType: q['filter.taskType'],
        requestStatus: q['filter.requestStatus'],
        key: q['filter.key'],
      });
    },
  );
}
