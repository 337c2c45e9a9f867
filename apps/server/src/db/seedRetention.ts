import type { Db } from './database.js';

// The demo's legal hold (issue 36): Acme's oldest closed request of the year of history is held by
// its manager, so the retention page counts one held request and the request page shows the hold.

export const DEMO_LEGAL_HOLD_REASON = 'Litigation: Acme Insurance v. the applicant, Supreme Court of NSW';

export async function holdDemoRequest(db: Db): Promise<void> {
  const oldest = await db
    .selectFrom('requests')
    .select(['request_number', 'closed_at'])
    .where('scope', '=', '/org/acme/')
    .where('status', '=', 'closed')
    .orderBy('closed_at')
    .limit(1)
    .executeTakeFirst();
  if (!oldest?.closed_at) return;
  const at = new Date(oldest.closed_at.getTime() + 86_400_000);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('requests')
      .set({ legal_hold_at: at, legal_hold_by: 'manager', legal_hold_reason: DEMO_LEGAL_HOLD_REASON })
      .where('request_number', '=', oldest.request_number)
      .execute();
    await trx
      .insertInto('events')
      .values({
        type: 'request.legalHoldPlaced',
        aggregate_type: 'request',
        aggregate_id: oldest.request_number,
        actor: 'manager',
        payload: JSON.stringify({
          summary: `Placed a legal hold: ${DEMO_LEGAL_HOLD_REASON}`,
          reason: DEMO_LEGAL_HOLD_REASON,
        }),
        created_at: at,
        workflow_pending: false,
      })
      .execute();
  });
}
