import fs from 'node:fs';
import { ACCESS_LOG_MONTHS_QUEUE, ensureAccessLogMonths } from '../audit/accessLog.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { DUE_DATES_QUEUE, runDueDateRecompute } from '../features/configuration/dueDates.js';
import { mailResetLink, RESET_QUEUE, type ResetRequest } from '../features/passwordReset/service.js';
import { RETENTION_QUEUE, type RetentionJob, runRetentionJob } from '../features/retention/index.js';
import {
  deliverWebhook,
  pruneWebhookLog,
  WEBHOOK_ATTEMPTS,
  WEBHOOK_PRUNE_QUEUE,
  WEBHOOK_QUEUE,
  type WebhookSettings,
} from '../features/webhooks/service.js';
import { storageFromConfig } from '../files/fromConfig.js';
import type { JobQueue } from './queue.js';

export { RETENTION_QUEUE };

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
  const prune = { name: WEBHOOK_PRUNE_QUEUE, retryLimit: 2, retryDelaySeconds: 60 };
  const dueDates = { name: DUE_DATES_QUEUE, retryLimit: 5, retryDelaySeconds: 30 };
  const resets = { name: RESET_QUEUE, retryLimit: 3, retryDelaySeconds: 10 };
  const accessMonths = { name: ACCESS_LOG_MONTHS_QUEUE, retryLimit: 5, retryDelaySeconds: 300 };
  const retention = { name: RETENTION_QUEUE, retryLimit: 2, retryDelaySeconds: 600 };
  if (!work) {
    await queue.declare(accessMonths.name, accessMonths);
    await queue.declare(retention.name, retention);
    await queue.declare(resets.name, resets);
    await queue.declare(webhooks.name, webhooks);
    await queue.declare(prune.name, prune);
    await queue.declare(dueDates.name, dueDates);
    return;
  }
  // Recomputing is idempotent (due dates follow from trigger times and the configuration), so a
  // retry or a second job for the same scope does no harm.
  await queue.work<{ scopePath: string }>({
    ...dueDates,
    handler: async (data) => {
      await runDueDateRecompute(db, data.scopePath);
    },
  });
  // A retry after a crash may mail a second link; the newer one retires the first.
  await queue.work<ResetRequest>({ ...resets, handler: (data) => mailResetLink(db, data) });
  const settings = webhookSettings(config);
  await queue.work<{ deliveryId: string }>({
    ...webhooks,
    handler: (data) => deliverWebhook(db, settings, data.deliveryId),
  });
  // The webhook delivery log keeps 30 days: pruned every hour.
  await queue.work<object>({
    ...prune,
    handler: async () => {
      await pruneWebhookLog(db);
    },
  });
  await queue.schedule(prune.name, '23 * * * *');
  // The access log's next three months exist before their first read (creating one twice is a no-op).
  await queue.work<object>({
    ...accessMonths,
    handler: async () => {
      await ensureAccessLogMonths(db);
    },
  });
  await queue.schedule(accessMonths.name, '41 2 * * *');
  // Retention (issue 36) once a day, and an administrator's queued Run now (features/retention/
  // runNow.ts): pg-boss makes one job per tick across instances and hands each job to one worker,
  // and a run that meets another (a retry, a Run now) takes only rows the other has not locked,
  // so running twice removes nothing twice.
  const storage = storageFromConfig(config);
  await queue.work<RetentionJob>({
    ...retention,
    handler: (data) => runRetentionJob({ db, storage }, data),
  });
  await queue.schedule(retention.name, '17 3 * * *');
}
