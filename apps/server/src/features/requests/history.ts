import type { RequestHistoryEntry } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';

// The request's history on its page: its events, newest first, with who did it. Events are read
// through events_aggregate_idx; the page shows the newest ones and pages back with `before`.

export const REQUEST_HISTORY_LIMIT = 50;

/**
 * Events the sender side does not see: invoices and payments are staff business, and a result is
 * told to the sender when it is quality-assured, not when it arrives or is discarded. Who of the
 * staff holds a task (claimed, assigned, released, moved by the assignment) is staff business too.
 */
export const STAFF_ONLY_EVENTS = [
  'request.invoiceAdded',
  'request.invoicePaid',
  'request.invoicePartPaid',
  'request.invoicePaymentConfirmed',
  'request.invoiceDiscarded',
  'request.remittanceAdviceSent',
  'request.resultAdded',
  'request.resultDiscarded',
  'request.undeliveredResultDownloaded',
  'request.taskClaimed',
  'request.taskAssigned',
  'request.taskReleased',
  'request.taskReassigned',
];

type Changes = NonNullable<RequestHistoryEntry['changes']>;

export async function listRequestHistory(
  db: DbOrTrx,
  requestNumber: string,
  options: { before?: string; limit?: number; staff?: boolean } = {},
): Promise<RequestHistoryEntry[]> {
  let query = db
    .selectFrom('events as e')
    .leftJoin('users as u', 'u.id', 'e.actor')
    .select(['e.id', 'e.type', 'e.payload', 'e.created_at', 'u.name as actor_name'])
    .where('e.aggregate_type', '=', 'request')
    .where('e.aggregate_id', '=', requestNumber);
  if (options.before) query = query.where('e.id', '<', options.before);
  if (options.staff === false) query = query.where('e.type', 'not in', STAFF_ONLY_EVENTS);
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
    };
  });
}
