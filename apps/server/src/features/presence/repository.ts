import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

// Presence rows (migration 0015): one per live connection, on any instance.

/** A connection not refreshed for this long (its instance died) no longer counts. */
export const PRESENCE_TTL_SECONDS = 75;
const fresh = () => sql<Date>`now() - make_interval(secs => ${PRESENCE_TTL_SECONDS})`;

export async function insertConnection(db: DbOrTrx, connectionId: string, userId: string): Promise<void> {
  await db.insertInto('presence').values({ connection_id: connectionId, user_id: userId }).execute();
}

/** Marks the connection alive; answers the request it shows, or undefined when the row is gone. */
export async function touchConnection(db: DbOrTrx, connectionId: string) {
  return db
    .updateTable('presence')
    .set({ seen_at: sql`now()` })
    .where('connection_id', '=', connectionId)
    .returning('request_number')
    .executeTakeFirst();
}

/** Sets the request the connection shows; answers the one it showed before. */
export async function setViewing(
  db: DbOrTrx,
  connectionId: string,
  userId: string,
  requestNumber: string | null,
): Promise<string | null> {
  const before = await db
    .selectFrom('presence')
    .select('request_number')
    .where('connection_id', '=', connectionId)
    .forUpdate()
    .executeTakeFirst();
  await db
    .insertInto('presence')
    .values({ connection_id: connectionId, user_id: userId, request_number: requestNumber })
    .onConflict((oc) =>
      oc.column('connection_id').doUpdateSet({ request_number: requestNumber, seen_at: sql`now()` }),
    )
    .execute();
  return before?.request_number ?? null;
}

export async function deleteConnection(db: DbOrTrx, connectionId: string): Promise<string | null> {
  const row = await db
    .deleteFrom('presence')
    .where('connection_id', '=', connectionId)
    .returning('request_number')
    .executeTakeFirst();
  return row?.request_number ?? null;
}

/** Rows left by instances that died long ago. */
export async function deleteStale(db: DbOrTrx): Promise<void> {
  await db.deleteFrom('presence').where('seen_at', '<', sql<Date>`now() - interval '1 hour'`).execute();
}

/** The users who have the request open now, each once, by name. */
export function listViewers(db: DbOrTrx, requestNumber: string) {
  return db
    .selectFrom('presence as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['u.id', 'u.name'])
    .distinct()
    .where('p.request_number', '=', requestNumber)
    .where('p.seen_at', '>', fresh())
    .orderBy('u.name')
    .limit(50)
    .execute();
}

/** The request's version as the caller's transaction sees it (undefined: no such request). */
export async function requestVersionOf(db: DbOrTrx, requestNumber: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('requests')
    .select('version')
    .where('request_number', '=', requestNumber)
    .executeTakeFirst();
  return row?.version;
}

/** Which of the given users hold a live connection now, on any instance. */
export async function onlineUserIds(db: DbOrTrx, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('presence')
    .select('user_id')
    .distinct()
    .where('user_id', 'in', userIds)
    .where('seen_at', '>', fresh())
    .execute();
  return new Set(rows.map((r) => r.user_id));
}
