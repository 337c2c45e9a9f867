import {
  acknowledgeNotificationsRoute,
  activeNotificationsRoute,
  listNotificationsRoute,
} from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { serve } from '../../http/serve.js';
import { requireActor, signedInOnly } from '../auth/index.js';
import { acknowledgeNotifications, countActiveNotifications, listNotifications } from './service.js';

export function notificationRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, listNotificationsRoute, async (_input, request) => ({
    notifications: await listNotifications(deps.db, requireActor(request)),
  }));
  serve(app, activeNotificationsRoute, async (_input, request) =>
    countActiveNotifications(deps.db, requireActor(request)),
  );
  serve(
    app,
    acknowledgeNotificationsRoute,
    async ({ body }, request) => ({
      notifications: await acknowledgeNotifications(deps.db, requireActor(request), body),
    }),
    { onRequest: signedInOnly },
  );
}
