import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

/**
 * Every use of a request's file, as the sender side's access to it needs them: as an invoice (its
 * file or a remittance advice), as a result (delivered to the sender, or awaiting QA), as an
 * attachment of the request's correspondence (any, one the sender side sees, the issued request).
 */
export async function findRequestFileUse(db: DbOrTrx, requestNumber: string, key: string) {
  const results = () =>
    db
      .selectFrom('request_results')
      .select('id')
      .where('request_number', '=', requestNumber)
      .where('file_key', '=', key);
  const attachments = () =>
    db
      .selectFrom('correspondence')
      .select('id')
      .where('request_number', '=', requestNumber)
      .where(
        sql<boolean>`exists (select 1 from jsonb_array_elements(attachments) a
          where a ->> 'key' = ${key} and coalesce((a ->> 'blocked')::boolean, false) = false)`,
      );
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .exists(
          eb
            .selectFrom('request_invoices')
            .select('id')
            .where('request_number', '=', requestNumber)
            .where((w) =>
              w.or([
                w('file_key', '=', key),
                w('remittance_advice_key', '=', key),
                // The advice of an earlier payment, which the invoice no longer links.
                w.exists(
                  w
                    .selectFrom('invoice_payments as p')
                    .select('p.id')
                    .whereRef('p.invoice_id', '=', 'request_invoices.id')
                    .where('p.remittance_advice_key', '=', key),
                ),
              ]),
            ),
        )
        .as('invoice'),
      eb.exists(results()).as('result'),
      eb
        .exists(
          results()
            .where('discarded_at', 'is', null)
            .where((w) =>
              w.or([w('quality_assured_at', 'is not', null), w('quality_assurance_skipped', '=', true)]),
            ),
        )
        .as('deliveredResult'),
      eb
        .exists(
          results()
            .where('discarded_at', 'is', null)
            .where('quality_assured_at', 'is', null)
            .where('quality_assurance_skipped', '=', false),
        )
        .as('resultAwaitingQa'),
      eb.exists(attachments()).as('attachment'),
      eb.exists(attachments().where('unverified_sender', '=', false)).as('attachmentSenderSees'),
      eb.exists(attachments().where('kind', '=', 'issuedRequest')).as('issuedRequest'),
    ])
    .executeTakeFirstOrThrow();
  return {
    invoice: !!row.invoice,
    result: !!row.result,
    deliveredResult: !!row.deliveredResult,
    resultAwaitingQa: !!row.resultAwaitingQa,
    attachment: !!row.attachment,
    attachmentSenderSees: !!row.attachmentSenderSees,
    issuedRequest: !!row.issuedRequest,
  };
}

export type RequestFileUse = Awaited<ReturnType<typeof findRequestFileUse>>;
