import https from 'node:https';
import type { DbOrTrx } from '../../db/database.js';
import { checkWebhookUrl, guardedLookup } from '../../http/ssrf.js';
import type { JobQueue } from '../../jobs/queue.js';
import { findSecret, getEffectiveEntries } from '../configuration/index.js';
import * as repo from './repository.js';
import { SIGNATURE_HEADER, signDelivery } from './signature.js';

export const WEBHOOK_QUEUE = 'webhook.deliver';
export const WEBHOOK_PRUNE_QUEUE = 'webhook.prune';

/** How long the delivery log keeps a delivery and its attempts. */
export const WEBHOOK_LOG_DAYS = 30;

export const WEBHOOK_EVENTS = [
  'requestSubmitted',
  'requestIssued',
  'requestClosed',
  'requestReOpened',
  'resultQualityAssured',
  'resultDiscarded',
  'invoiceAdded',
  'invoicePaid',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Attempts before a delivery is given up (the queue retries with growing delays in between). */
export const WEBHOOK_ATTEMPTS = 6;

export interface WebhookSettings {
  allowLoopback: boolean;
  /** Extra trusted certificate authorities (PEM), for private PKI and tests. */
  ca?: string | undefined;
  timeoutMs: number;
}

/**
 * Queues a delivery of an event to every webhook entry in effect for the scope; call it in the
 * transaction of the change, so deliveries exist exactly when the change committed.
 */
export async function publishWebhookEvent(
  trx: DbOrTrx,
  jobs: JobQueue,
  event: { type: WebhookEvent; scopePath: string; data: Record<string, unknown> },
): Promise<number> {
  const entries = await getEffectiveEntries(trx, event.scopePath, 'apiWebhookEntry');
  for (const entry of entries) {
    if (!entry.data.url) continue;
    const payload = {
      event: event.type,
      scopePath: event.scopePath,
      occurredAt: new Date().toISOString(),
      data: event.data,
    };
    const { id } = await repo.insertDelivery(trx, {
      configurationId: entry.configurationId,
      entryId: entry.id,
      eventType: event.type,
      url: entry.data.url,
      payload,
    });
    await jobs.send(trx, WEBHOOK_QUEUE, { deliveryId: id });
  }
  return entries.length;
}

function post(url: string, body: string, headers: Record<string, string>, settings: WebhookSettings) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = https.request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
        // The address is checked as the connection is made; redirects are never followed.
        lookup: guardedLookup(settings.allowLoopback) as never,
        ca: settings.ca,
        timeout: settings.timeoutMs,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (text.length < 2000) text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('The webhook did not answer in time.')));
    request.on('error', reject);
    request.end(body);
  });
}

class RetryLater extends Error {}

/** Delivers one queued event; throws when it should be tried again (the job queue backs off). */
export async function deliverWebhook(
  db: DbOrTrx,
  settings: WebhookSettings,
  deliveryId: string,
): Promise<void> {
  const delivery = await repo.findDelivery(db, deliveryId);
  if (!delivery || delivery.status === 'delivered') return;
  const started = performance.now();
  // Checked again when sending: the entry may predate a rule, or its name may resolve elsewhere now.
  const refusal = await checkWebhookUrl(delivery.url, settings.allowLoopback);
  if (refusal) {
    await repo.recordAttempt(db, deliveryId, {
      status: 'failed',
      error: refusal,
      durationMs: performance.now() - started,
    });
    return;
  }
  const privateKey = await findSecret(db, delivery.configuration_id, delivery.entry_id);
  if (!privateKey) {
    await repo.recordAttempt(db, deliveryId, { status: 'failed', error: 'The webhook has no signing key.' });
    return;
  }
  const body = JSON.stringify({ id: deliveryId, ...delivery.payload });
  const headers = {
    [SIGNATURE_HEADER]: signDelivery(privateKey, body, Math.floor(Date.now() / 1000)),
    'dossier-event': delivery.event_type,
    'dossier-delivery': deliveryId,
  };
  try {
    const answer = await post(delivery.url, body, headers, settings);
    const ok = answer.status >= 200 && answer.status < 300;
    const last = delivery.attempts + 1 >= WEBHOOK_ATTEMPTS;
    await repo.recordAttempt(db, deliveryId, {
      status: ok ? 'delivered' : last ? 'failed' : 'pending',
      responseStatus: answer.status,
      responseBody: answer.body,
      error: ok ? undefined : `The receiver answered ${answer.status}.`,
      durationMs: performance.now() - started,
    });
    if (!ok && !last) throw new RetryLater(`webhook ${deliveryId} answered ${answer.status}`);
  } catch (error) {
    if (error instanceof RetryLater) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const last = delivery.attempts + 1 >= WEBHOOK_ATTEMPTS;
    await repo.recordAttempt(db, deliveryId, {
      status: last ? 'failed' : 'pending',
      error: message,
      durationMs: performance.now() - started,
    });
    if (!last) throw error;
  }
}

/** The latest deliveries of a webhook entry, each with every attempt and its answer. */
export async function listWebhookDeliveries(db: DbOrTrx, configurationId: string, entryId: string) {
  const deliveries = await repo.listDeliveries(db, configurationId, entryId, 50);
  const attempts = await repo.listAttempts(
    db,
    deliveries.map((d) => d.id),
  );
  return deliveries.map((delivery) => ({
    ...delivery,
    attemptLog: attempts.filter((a) => a.delivery_id === delivery.id),
  }));
}

/** Drops deliveries (and their attempts) older than the log keeps; the hourly prune job. */
export function pruneWebhookLog(db: DbOrTrx, now = new Date()): Promise<number> {
  return repo.pruneDeliveries(db, new Date(now.getTime() - WEBHOOK_LOG_DAYS * 86_400_000));
}
