import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { requireActor } from '../auth/index.js';
import { getHomeView } from './service.js';

export function homeRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/', async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () => getHomeView(deps.db, requireActor(request))),
  );
}
