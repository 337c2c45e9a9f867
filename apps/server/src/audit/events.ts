import { AUTH_METHODS, type AuthMethod, type HistoryEntry, type RequestEventName } from '@dossier/core';
import type { DbOrTrx, Trx } from '../db/database.js';

// The audit trail of users, roles, recipients, payees and deleted configuration: one row in `events` per change, written
// in the transaction of the change, with the fields that changed (old and new value). Secrets are
// never written: a changed password shows as changed.

export type AggregateType = 'user' | 'recipient' | 'payee' | 'request' | 'mail' | 'configuration';

export type Changes = Record<string, { from: unknown; to: unknown }>;

const SECRET_FIELDS = new Set(['password', 'passwordHash', 'password_hash']);

const isBlank = (v: unknown) =>
  v === false ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && Object.keys(v).length === 0);

/** The fields whose value differs between two flat records (compared as JSON). */
export function diffRecords(before: object, after: object): Changes {
  const changes: Changes = {};
  const was = new Map<string, unknown>(Object.entries(before));
  const is = new Map<string, unknown>(Object.entries(after));
  for (const key of new Set([...was.keys(), ...is.keys()])) {
    const from = was.get(key) ?? null;
    const to = is.get(key) ?? null;
    if (JSON.stringify(from) === JSON.stringify(to)) continue;
    // A new record's unset fields (false, empty) are not news.
    if (from === null && isBlank(to)) continue;
    changes[key] = SECRET_FIELDS.has(key) ? { from: '(hidden)', to: '(changed)' } : { from, to };
  }
  return changes;
}

/** A request's events have a name from the list in core; other aggregates' names are free. */
type EventName =
  | { aggregateType: 'request'; type: RequestEventName }
  | { aggregateType: Exclude<AggregateType, 'request'>; type: string };

export async function recordEvent(
  trx: Trx,
  event: EventName & {
    aggregateId: string;
    actor: string | null;
    payload: unknown;
  },
): Promise<void> {
  await trx
    .insertInto('events')
    .values({
      type: event.type,
      aggregate_type: event.aggregateType,
      aggregate_id: event.aggregateId,
      actor: event.actor,
      payload: JSON.stringify(event.payload),
    })
    .execute();
  for (const listener of listeners) await listener(trx, event);
}

export type RecordedEvent = {
  type: string;
  aggregateType: AggregateType;
  aggregateId: string;
  actor: string | null;
};
type EventListener = (trx: Trx, event: RecordedEvent) => Promise<void>;
const listeners = new Set<EventListener>();

/**
 * Runs `listener` in the transaction of every event recorded from now on. Every change writes an
 * event, so this is the one place that sees them all (live pages follow requests through it); the
 * features register here at start-up, so this platform module imports none of them.
 */
export function onEventRecorded(listener: EventListener): void {
  listeners.add(listener);
}

export const HISTORY_LIMIT = 50;

/** How the actor's session was authenticated, where the event recorded it (issue 35). */
export function authenticatedByOf(payload: unknown): { authenticatedBy?: AuthMethod } {
  const value = (payload as { authenticatedBy?: unknown } | null)?.authenticatedBy;
  return typeof value === 'string' && (AUTH_METHODS as readonly string[]).includes(value)
    ? { authenticatedBy: value as AuthMethod }
    : {};
}

/** The newest changes of one record, newest first (indexed by events_aggregate_idx). */
export async function listHistory(
  db: DbOrTrx,
  aggregateType: AggregateType,
  aggregateId: string,
): Promise<HistoryEntry[]> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'type', 'actor', 'payload', 'created_at'])
    .where('aggregate_type', '=', aggregateType)
    .where('aggregate_id', '=', aggregateId)
    .orderBy('id', 'desc')
    .limit(HISTORY_LIMIT)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    at: row.created_at.toISOString(),
    actor: row.actor,
    type: row.type,
    changes: (row.payload?.changes ?? {}) as Changes,
    ...authenticatedByOf(row.payload),
  }));
}
