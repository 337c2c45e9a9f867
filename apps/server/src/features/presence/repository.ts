import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import { userMayViewRequest } from '../requests/index.js';

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

/** Whether the user in `userId` may view the request joined as `r`, by its roles as they are now. */
const mayView = (userId: string) =>
  userMayViewRequest(sql.ref(userId), {
    scope: sql.ref('r.scope'),
    externalUserReferences: sql.ref('r.external_user_references'),
  });

/**
 * The users who have the request open now and may still view it, each once, by name: a user whose
 * roles were taken away is neither told of the request's changes nor shown to the others, whatever
 * its connection's row still says (rows are re-checked on every change of roles: recheckViewing).
 */
export function listViewers(db: DbOrTrx, requestNumber: string) {
  return db
    .selectFrom('presence as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .innerJoin('requests as r', 'r.request_number', 'p.request_number')
    .select(['u.id', 'u.name'])
    .distinct()
    .where('p.request_number', '=', requestNumber)
    .where('p.seen_at', '>', fresh())
    .where(mayView('p.user_id'))
    .orderBy('u.name')
    .limit(50)
    .execute();
}

/** Whether the user may view the request now (false for no such request). */
export async function userMayView(db: DbOrTrx, userId: string, requestNumber: string): Promise<boolean> {
  const row = await db
    .selectFrom('requests as r')
    .select(sql<boolean>`${mayView('u.id')}`.as('may'))
    .innerJoin('users as u', (join) => join.on('u.id', '=', userId))
    .where('r.request_number', '=', requestNumber)
    .executeTakeFirst();
  return row?.may === true;
}

/**
 * Of the given connections, those showing a request their user may no longer view: each is made to
 * show none. Answers the requests they showed, whose viewers are then told the new list.
 */
export async function dropUnviewable(db: DbOrTrx, connectionIds: string[]): Promise<string[]> {
  if (connectionIds.length === 0) return [];
  const rows = await db
    .updateTable('presence as p')
    .set({ request_number: null })
    .from('requests as r')
    .whereRef('r.request_number', '=', 'p.request_number')
    .where('p.connection_id', 'in', connectionIds)
    .where((eb) => eb.not(mayView('p.user_id')))
    .returning('r.request_number')
    .execute();
  return [...new Set(rows.map((row) => row.request_number))];
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
