import { type WebhookDelivery, webhookDeliveriesRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { notFound } from '../../http/errors.js';
import { serve } from '../../http/serve.js';
import { assertCanView, findConfiguration, requireConfigurationViewer } from '../configuration/index.js';
import { listWebhookDeliveries } from './service.js';

/** The delivery log of a webhook entry (each delivery with all its attempts), shown under the entry in its editor. */
export function webhookRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, webhookDeliveriesRoute, async ({ params }, request) => {
    const actor = requireConfigurationViewer(request);
    const configuration = await findConfiguration(deps.db, params.configuration);
    if (!configuration) throw notFound('No such configuration.');
    assertCanView(actor, configuration.scopePath);
    const rows = await listWebhookDeliveries(deps.db, configuration.id, params.id);
    return {
      deliveries: rows.map(
        (r): WebhookDelivery => ({
          id: r.id,
          eventType: r.event_type,
          url: r.url,
          status: r.status,
          attempts: r.attempts,
          responseStatus: r.response_status,
          responseBody: r.response_body,
          error: r.error,
          createdAt: r.created_at.toISOString(),
          lastAttemptAt: r.last_attempt_at?.toISOString() ?? null,
          deliveredAt: r.delivered_at?.toISOString() ?? null,
          attemptLog: r.attemptLog.map((a) => ({
            attempt: a.attempt,
            attemptedAt: a.attempted_at.toISOString(),
            durationMs: a.duration_ms,
            responseStatus: a.response_status,
            responseExcerpt: a.response_excerpt,
            error: a.error,
          })),
        }),
      ),
    };
  });
}
