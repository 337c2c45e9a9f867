import type { DbOrTrx } from '../../db/database.js';

// SQL of the requests table itself; each part (correspondence, results, invoices, drafts) has its own.

export function findRequest(db: DbOrTrx, requestNumber: string, options: { forUpdate?: boolean } = {}) {
  const query = db.selectFrom('requests').selectAll().where('request_number', '=', requestNumber);
  return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export type RequestRow = NonNullable<Awaited<ReturnType<typeof findRequest>>>;

/** Marks a change: who and when, a new version (stale edits are refused by version), last activity. */
export async function touchRequest(
  trx: DbOrTrx,
  requestNumber: string,
  actorId: string | null,
  at = new Date(),
) {
  await trx
    .updateTable('requests')
    .set((eb) => ({
      last_updated_at: at,
      last_updated_by: actorId,
      last_activity_at: at,
      version: eb('version', '+', 1),
    }))
    .where('request_number', '=', requestNumber)
    .execute();
}

/** Re-opens a closed request; false when it was not closed (a concurrent re-open won). */
export async function reopenClosedRequest(
  trx: DbOrTrx,
  requestNumber: string,
  status: 'open' | 'submitted',
): Promise<boolean> {
  const reopened = await trx
    .updateTable('requests')
    .set({ status, closed_at: null, closed_by: null })
    .where('request_number', '=', requestNumber)
    .where('status', '=', 'closed')
    .returning('request_number')
    .executeTakeFirst();
  return reopened !== undefined;
}

/** Writes the columns of one edited part of a request (the part's own save checks them). */
export async function updateRequestColumns(
  trx: DbOrTrx,
  requestNumber: string,
  set: Record<string, unknown>,
) {
  await trx.updateTable('requests').set(set).where('request_number', '=', requestNumber).execute();
}

/** Places (or with null, removes) the legal hold of a request: while held, retention passes it by. */
export async function setLegalHold(
  trx: DbOrTrx,
  requestNumber: string,
  hold: { at: Date; by: string; reason: string } | null,
): Promise<void> {
  await trx
    .updateTable('requests')
    .set({
      legal_hold_at: hold?.at ?? null,
      legal_hold_by: hold?.by ?? null,
      legal_hold_reason: hold?.reason ?? null,
    })
    .where('request_number', '=', requestNumber)
    .execute();
}
