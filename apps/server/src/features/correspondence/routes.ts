import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { requireActor } from '../auth/index.js';
import { acceptMessageSender, editCorrespondence } from './service.js';

const params = z.object({ requestNumber: z.string().max(20), messageId: z.string().max(100) });

export function correspondenceRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/requests/:requestNumber/correspondence/:messageId/accept-sender',
    { schema: { params } },
    async (request) =>
      acceptMessageSender(
        deps,
        requireActor(request),
        request.params.requestNumber,
        request.params.messageId,
      ),
  );
  r.post('/requests/:requestNumber/correspondence/:messageId', { schema: { params } }, async (request) => ({
    item: await editCorrespondence(
      deps,
      requireActor(request),
      request.params.requestNumber,
      request.params.messageId,
      request.body,
    ),
  }));
}
