import type { DbOrTrx } from '../../db/database.js';
import type { AppDeps } from '../../http/deps.js';
import { publishWebhookEvent, type WebhookEvent } from './service.js';

/**
 * Queues the webhook deliveries of a result or invoice event in the transaction of the change. A
 * server started without background jobs (tests of other parts) has nobody to deliver them.
 */
export async function publishRequestWebhook(
  trx: DbOrTrx,
  deps: Pick<AppDeps, 'jobs'>,
  request: { scope: string },
  type: WebhookEvent,
  data: Record<string, unknown>,
): Promise<void> {
  if (!deps.jobs) return;
  await publishWebhookEvent(trx, deps.jobs, { type, scopePath: request.scope, data });
}
