import {
  type RequestHistoryEntry,
  SENDER_HIDDEN_EVENTS,
  SENDER_OWN_EVENTS,
  SENDER_TASK_TYPES,
  TASK_EVENTS,
} from '@dossier/core';
import { sql } from 'kysely';
import { authenticatedByOf } from '../../audit/events.js';
import type { DbOrTrx } from '../../db/database.js';

// The request's history on its page: its events, newest first, with who did it. Events are read
// through events_aggregate_idx; the page shows the newest ones and pages back with `before`.

export const REQUEST_HISTORY_LIMIT = 50;

type Changes = NonNullable<RequestHistoryEntry['changes']>;

export async function listRequestHistory(
  db: DbOrTrx,
  requestNumber: string,
  options: { before?: string | undefined; limit?: number; staff?: boolean } = {},
): Promise<RequestHistoryEntry[]> {
  let query = db
    .selectFrom('events as e')
    .leftJoin('users as u', 'u.id', 'e.actor')
    .select(['e.id', 'e.type', 'e.payload', 'e.created_at', 'u.name as actor_name'])
    .where('e.aggregate_type', '=', 'request')
    .where('e.aggregate_id', '=', requestNumber);
  if (options.before) query = query.where('e.id', '<', options.before);
  if (options.staff === false)
    // What a sender sees is written once, in @dossier/core (senderVisibility.ts).
    query = query
      .where('e.type', 'not in', SENDER_HIDDEN_EVENTS)
      .where((eb) =>
        eb.or([
          eb('e.type', 'not in', TASK_EVENTS),
          eb(sql<string>`e.payload ->> 'type'`, 'in', SENDER_TASK_TYPES),
        ]),
      )
      .where((eb) =>
        eb.or([
          eb('e.type', 'not in', SENDER_OWN_EVENTS),
          sql<boolean>`coalesce(e.payload ->> 'bySender', 'true') <> 'false'`,
        ]),
      );
  const rows = await query
    .orderBy('e.id', 'desc')
    .limit(options.limit ?? REQUEST_HISTORY_LIMIT)
    .execute();
  return rows.map((row) => {
    const payload = (row.payload ?? {}) as { summary?: unknown; changes?: Changes };
    return {
      id: row.id,
      at: row.created_at.toISOString(),
      actorDisplayName: row.actor_name,
      type: row.type,
      summary: typeof payload.summary === 'string' ? payload.summary : row.type,
      changes: payload.changes && Object.keys(payload.changes).length > 0 ? payload.changes : undefined,
      ...authenticatedByOf(row.payload),
    };
  });
}
