import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { requireActor } from '../auth/index.js';
import { acceptMessageSender } from './service.js';

const params = z.object({ requestNumber: z.string().max(20), messageId: z.string().max(100) });

// A note's edit (POST /requests/{n}/correspondence/{messageId}) is the request page's route
// (requestPage/routes.ts): it may answer the page.
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
}
