import { type DashboardView, dashboardPageRoute, dashboardTileRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { hasPermission, requireActor } from '../auth/index.js';
import { COUNT_CAP, DASHBOARD_TILES } from './repository.js';
import { getDashboardTile, listSelectableOwners } from './service.js';

export function dashboardRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, dashboardPageRoute, async (_input, request, reply) =>
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

  serve(app, dashboardTileRoute, async ({ params, query: q }, request) =>
    getDashboardTile(deps.db, requireActor(request), params.bind, {
      pageOffset: q.pageOffset,
      pageSize: q.pageSize,
      due: q.due,
      owner: q.owner,
      taskType: q['filter.taskType'],
      requestStatus: q['filter.requestStatus'],
      key: q['filter.key'],
    }),
  );
}
