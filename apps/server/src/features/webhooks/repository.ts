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

export async function recordAttempt(
  db: DbOrTrx,
  id: string,
  outcome: {
    status: 'pending' | 'delivered' | 'failed';
    responseStatus?: number;
    responseBody?: string;
    error?: string;
  },
) {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      attempts: sql`attempts + 1`,
      last_attempt_at: new Date(),
      response_status: outcome.responseStatus ?? null,
      response_body: outcome.responseBody?.slice(0, 1000) ?? null,
      error: outcome.error?.slice(0, 1000) ?? null,
      delivered_at: outcome.status === 'delivered' ? new Date() : null,
    })
    .where('id', '=', id)
    .execute();
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
