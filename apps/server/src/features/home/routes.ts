import { homePageRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { requireActor } from '../auth/index.js';
import { getHomeView } from './service.js';

export function homeRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, homePageRoute, async (_input, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () => getHomeView(deps.db, requireActor(request))),
  );
}
