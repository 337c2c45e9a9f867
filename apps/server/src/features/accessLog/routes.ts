import { requestAccessRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { serve } from '../../http/serve.js';
import { requireActor } from '../auth/index.js';
import { getRequestAccess } from './service.js';

// The access log as its readers see it: the request page's Access tab.

export function accessLogRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, requestAccessRoute, async ({ params, query }, request) =>
    getRequestAccess(deps.db, requireActor(request), params.requestNumber, query.pageOffset),
  );
}
