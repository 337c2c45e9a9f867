import { type RequestFileUses, senderSeesCorrespondenceContent } from '@dossier/core';
import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

const NO_USE: RequestFileUses = {
  invoice: false,
  undeliveredResult: false,
  deliveredResult: false,
  result: false,
  issuedRequest: false,
  attachmentSenderSees: false,
  attachment: false,
};

/**
 * Every use of some of a request's files, by key, as the sender side's access to them needs it
 * (senderMayReadFile in @dossier/core): as an invoice (its file, a remittance advice, the advice of
 * an earlier payment), as a result (delivered, or awaiting QA or discarded), as an attachment of
 * the request's correspondence (any, one whose content the sender side sees, the issued request).
 * Three reads whatever the number of keys; a key with no use answers all false.
 */
export async function findRequestFileUses(
  db: DbOrTrx,
  requestNumber: string,
  keys: readonly string[],
): Promise<Map<string, RequestFileUses>> {
  const uses = new Map<string, RequestFileUses>();
  const wanted = [...new Set(keys)];
  if (wanted.length === 0) return uses;
  for (const key of wanted) uses.set(key, { ...NO_USE });
  const mark = (key: string | null, change: Partial<RequestFileUses>) => {
    const use = key ? uses.get(key) : undefined;
    if (use) Object.assign(use, change);
  };
  const [results, invoices, attachments] = await Promise.all([
    db
      .selectFrom('request_results')
      .select(['file_key', 'discarded_at', 'quality_assured_at', 'quality_assurance_skipped'])
      .where('request_number', '=', requestNumber)
      .where('file_key', 'in', wanted)
      .execute(),
    db
      .selectFrom('request_invoices as i')
      .leftJoin('invoice_payments as p', 'p.invoice_id', 'i.id')
      .select(['i.file_key', 'i.remittance_advice_key', 'p.remittance_advice_key as payment_advice_key'])
      .where('i.request_number', '=', requestNumber)
      .where((w) =>
        w.or([
          w('i.file_key', 'in', wanted),
          w('i.remittance_advice_key', 'in', wanted),
          w('p.remittance_advice_key', 'in', wanted),
        ]),
      )
      .execute(),
    // The attachments (not blocked) of the request's correspondence that carry one of the keys.
    sql<{ key: string; kind: string; unverified_sender: boolean; shared: boolean }>`
      select a ->> 'key' as key, c.kind, c.unverified_sender, c.shared_with_sender_at is not null as shared
      from correspondence c cross join lateral jsonb_array_elements(c.attachments) a
      where c.request_number = ${requestNumber}
        and a ->> 'key' in (${sql.join(wanted)})
        and coalesce((a ->> 'blocked')::boolean, false) = false`
      .execute(db)
      .then((r) => r.rows),
  ]);
  for (const r of results) {
    const delivered = !r.discarded_at && (!!r.quality_assured_at || r.quality_assurance_skipped);
    mark(
      r.file_key,
      delivered ? { result: true, deliveredResult: true } : { result: true, undeliveredResult: true },
    );
  }
  for (const i of invoices)
    for (const key of [i.file_key, i.remittance_advice_key, i.payment_advice_key])
      if (key) mark(key, { invoice: true });
  for (const a of attachments) {
    mark(a.key, { attachment: true });
    if (a.kind === 'issuedRequest') mark(a.key, { issuedRequest: true });
    if (
      senderSeesCorrespondenceContent({
        kind: a.kind,
        unverifiedSender: a.unverified_sender,
        sharedWithSender: a.shared,
      })
    )
      mark(a.key, { attachmentSenderSees: true });
  }
  return uses;
}
