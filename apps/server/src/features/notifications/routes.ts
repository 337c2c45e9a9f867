import { acknowledgeNotificationsSchema } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';
import { requireActor, signedInOnly } from '../auth/index.js';
import { acknowledgeNotifications, countActiveNotifications, listNotifications } from './service.js';

export function notificationRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/notifications', async (request) => ({
    notifications: await listNotifications(deps.db, requireActor(request)),
  }));
  r.get('/notifications/active', async (request) => countActiveNotifications(deps.db, requireActor(request)));
  r.post(
    '/notifications/acknowledge',
    { onRequest: signedInOnly, schema: { body: acknowledgeNotificationsSchema } },
    async (request) => ({
      notifications: await acknowledgeNotifications(deps.db, requireActor(request), request.body),
    }),
  );
}
