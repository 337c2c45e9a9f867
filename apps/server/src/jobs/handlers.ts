import fs from 'node:fs';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import {
  deliverWebhook,
  WEBHOOK_ATTEMPTS,
  WEBHOOK_QUEUE,
  type WebhookSettings,
} from '../features/webhooks/service.js';
import type { JobQueue } from './queue.js';

// Every queue of the application. All instances declare them (so any can send); instances running
// the jobs service also work them.

export function webhookSettings(config: Config): WebhookSettings {
  return {
    allowLoopback: config.webhooks.allowLoopback,
    ca: config.webhooks.caFile ? fs.readFileSync(config.webhooks.caFile, 'utf8') : undefined,
    timeoutMs: 10_000,
  };
}

export async function registerQueues(queue: JobQueue, db: Db, config: Config, work: boolean): Promise<void> {
  const webhooks = { name: WEBHOOK_QUEUE, retryLimit: WEBHOOK_ATTEMPTS - 1, retryDelaySeconds: 10 };
  if (!work) {
    await queue.declare(webhooks.name, webhooks);
    return;
  }
  const settings = webhookSettings(config);
  await queue.work<{ deliveryId: string }>({
    ...webhooks,
    handler: (data) => deliverWebhook(db, settings, data.deliveryId),
  });
}
