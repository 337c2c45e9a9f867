import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

export function insertDelivery(
  db: DbOrTrx,
  d: { configurationId: string; entryId: string; eventType: string; url: string; payload: unknown },
) {
  return db
    .insertInto('webhook_deliveries')
    .values({
      configuration_id: d.configurationId,
      entry_id: d.entryId,
      event_type: d.eventType,
      url: d.url,
      payload: JSON.stringify(d.payload),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export function findDelivery(db: DbOrTrx, id: string) {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** How much of a receiver's answer the log keeps. */
export const RESPONSE_EXCERPT_CHARS = 500;

/**
 * Logs one attempt (its own row, kept with the others) and brings the delivery's summary up to date:
 * its status, the number of attempts and the last answer.
 */
export async function recordAttempt(
  db: DbOrTrx,
  id: string,
  outcome: {
    status: 'pending' | 'delivered' | 'failed';
    responseStatus?: number;
    responseBody?: string;
    error?: string | undefined;
    durationMs?: number;
  },
) {
  const now = new Date();
  const excerpt = outcome.responseBody?.slice(0, RESPONSE_EXCERPT_CHARS) ?? null;
  const error = outcome.error?.slice(0, 1000) ?? null;
  const updated = await db
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      attempts: sql`attempts + 1`,
      last_attempt_at: now,
      response_status: outcome.responseStatus ?? null,
      response_body: excerpt,
      error,
      delivered_at: outcome.status === 'delivered' ? now : null,
    })
    .where('id', '=', id)
    .returning('attempts')
    .executeTakeFirst();
  if (!updated) return;
  await db
    .insertInto('webhook_delivery_attempts')
    .values({
      delivery_id: id,
      attempt: updated.attempts,
      attempted_at: now,
      duration_ms: outcome.durationMs === undefined ? null : Math.round(outcome.durationMs),
      response_status: outcome.responseStatus ?? null,
      response_excerpt: excerpt,
      error,
    })
    .execute();
}

/** The attempts of these deliveries, oldest first, through webhook_delivery_attempts_delivery_idx. */
export function listAttempts(db: DbOrTrx, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('webhook_delivery_attempts')
    .select([
      'delivery_id',
      'attempt',
      'attempted_at',
      'duration_ms',
      'response_status',
      'response_excerpt',
      'error',
    ])
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('id')
    .execute();
}

/**
 * Deletes deliveries created before the cutoff, their attempts with them (cascade), a batch at a
 * time so one run never holds many locks; answers how many went.
 */
export async function pruneDeliveries(db: DbOrTrx, before: Date, batch = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db
      .deleteFrom('webhook_deliveries')
      .where('id', 'in', (eb) =>
        eb.selectFrom('webhook_deliveries').select('id').where('created_at', '<', before).limit(batch),
      )
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    total += deleted;
    if (deleted < batch) return total;
  }
}

export function listDeliveries(db: DbOrTrx, configurationId: string, entryId: string, limit: number) {
  return db
    .selectFrom('webhook_deliveries')
    .select([
      'id',
      'event_type',
      'url',
      'status',
      'attempts',
      'response_status',
      'response_body',
      'error',
      'created_at',
      'last_attempt_at',
      'delivered_at',
    ])
    .where('configuration_id', '=', configurationId)
    .where('entry_id', '=', entryId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
