import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../../app.js';
import { requireActor } from '../../auth/index.js';
import './index.js';
import { runRequestAction } from './run.js';

const params = z.object({ requestNumber: z.string().max(20), action: z.string().max(50) });

export function requestActionRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post('/requests/:requestNumber/actions/:action', { schema: { params } }, async (request) => {
    const actor = requireActor(request);
    const result = await runRequestAction(
      deps,
      actor,
      request.params.requestNumber,
      request.params.action,
      request.body,
    );
    return result ?? { ok: true };
  });
}
