import { type RequestFileUses, senderSeesCorrespondenceContent } from '@dossier/core';
import { type Expression, type RawBuilder, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

const NO_USE: RequestFileUses = {
  invoice: false,
  undeliveredResult: false,
  deliveredResult: false,
  result: false,
  issuedRequest: false,
  attachmentSenderSees: false,
  attachment: false,
  received: false,
};

/** The classification of a request's copy of a received message's attachment (inbox/linking.ts). */
export const RECEIVED_FILE = 'received';
/** The classification of a letter printed with the recipient's passcode (fax, post; issue 34). */
export const PASSCODE_LETTER_FILE = 'requestLetterWithPasscode';

/** The key of one request's file in the maps below. */
export const fileOfRequest = (requestNumber: string, key: string) => `${requestNumber}\u0000${key}`;

/** Every use of some of one request's files, by key (see findFileUses). */
export async function findRequestFileUses(
  db: DbOrTrx,
  requestNumber: string,
  keys: readonly string[],
): Promise<Map<string, RequestFileUses>> {
  const uses = await findFileUses(
    db,
    keys.map((key) => ({ requestNumber, key })),
  );
  return new Map(keys.map((key) => [key, uses.get(fileOfRequest(requestNumber, key)) ?? { ...NO_USE }]));
}

/**
 * Every use of some requests' files, by fileOfRequest(request, key), as the sender side's access to
 * them needs it (senderMayReadFile in @dossier/core): as an invoice (its file, a remittance advice,
 * the advice of an earlier payment), as a result (delivered, or awaiting QA or discarded), as an
 * attachment of the request's correspondence (any, one whose content the sender side sees, the
 * issued request). Four reads whatever the number of files; a file with no use answers all false.
 */
export async function findFileUses(
  db: DbOrTrx,
  files: readonly { requestNumber: string; key: string }[],
): Promise<Map<string, RequestFileUses>> {
  const uses = new Map<string, RequestFileUses>();
  for (const f of files) uses.set(fileOfRequest(f.requestNumber, f.key), { ...NO_USE });
  if (uses.size === 0) return uses;
  const wanted = [...new Set(files.map((f) => f.key))];
  const numbers = [...new Set(files.map((f) => f.requestNumber))];
  const mark = (requestNumber: string, key: string | null, change: Partial<RequestFileUses>) => {
    const use = key ? uses.get(fileOfRequest(requestNumber, key)) : undefined;
    if (use) Object.assign(use, change);
  };
  const [results, invoices, attachments, received] = await Promise.all([
    db
      .selectFrom('request_results')
      .select([
        'request_number',
        'file_key',
        'discarded_at',
        'quality_assured_at',
        'quality_assurance_skipped',
      ])
      .where('request_number', 'in', numbers)
      .where('file_key', 'in', wanted)
      .execute(),
    db
      .selectFrom('request_invoices as i')
      .leftJoin('invoice_payments as p', 'p.invoice_id', 'i.id')
      .select([
        'i.request_number',
        'i.file_key',
        'i.remittance_advice_key',
        'p.remittance_advice_key as payment_advice_key',
      ])
      .where('i.request_number', 'in', numbers)
      .where((w) =>
        w.or([
          w('i.file_key', 'in', wanted),
          w('i.remittance_advice_key', 'in', wanted),
          w('p.remittance_advice_key', 'in', wanted),
        ]),
      )
      .execute(),
    // The attachments (not blocked) of the request's correspondence that carry one of the keys.
    sql<{ request_number: string; key: string; kind: string; unverified_sender: boolean; shared: boolean }>`
      select c.request_number, a ->> 'key' as key, c.kind, c.unverified_sender,
        c.shared_with_sender_at is not null as shared
      from correspondence c cross join lateral jsonb_array_elements(c.attachments) a
      where c.request_number in (${sql.join(numbers)})
        and a ->> 'key' in (${sql.join(wanted)})
        and coalesce((a ->> 'blocked')::boolean, false) = false`
      .execute(db)
      .then((r) => r.rows),
    db
      .selectFrom('files')
      .select(['key', 'owner_id'])
      .where('key', 'in', wanted)
      .where('owner_type', '=', 'request')
      .select('classification')
      .where('classification', 'in', [RECEIVED_FILE, PASSCODE_LETTER_FILE])
      .execute(),
  ]);
  for (const f of received)
    if (f.owner_id)
      mark(
        f.owner_id,
        f.key,
        f.classification === RECEIVED_FILE ? { received: true } : { carriesPasscode: true },
      );
  for (const r of results) {
    const delivered = !r.discarded_at && (!!r.quality_assured_at || r.quality_assurance_skipped);
    mark(
      r.request_number,
      r.file_key,
      delivered ? { result: true, deliveredResult: true } : { result: true, undeliveredResult: true },
    );
  }
  for (const i of invoices)
    for (const key of [i.file_key, i.remittance_advice_key, i.payment_advice_key])
      if (key) mark(i.request_number, key, { invoice: true });
  for (const a of attachments) {
    mark(a.request_number, a.key, { attachment: true });
    if (a.kind === 'issuedRequest') mark(a.request_number, a.key, { issuedRequest: true });
    if (
      senderSeesCorrespondenceContent({
        kind: a.kind,
        unverifiedSender: a.unverified_sender,
        sharedWithSender: a.shared,
      })
    )
      mark(a.request_number, a.key, { attachmentSenderSees: true });
  }
  return uses;
}

/**
 * The denying uses of senderMayReadFile as SQL, for lists that filter and count in the database (the
 * dashboard's Results tile): the file of `requestNumber` under `key` is an invoice's file, a
 * remittance advice or a payment's advice, or the file of a result awaiting QA or discarded. Keep
 * in step with findFileUses and senderMayReadFile (fileUses.test.ts and sharedWithSender.test.ts
 * check both).
 */
export function fileDeniedToSender(
  requestNumber: Expression<string>,
  key: Expression<string>,
): RawBuilder<boolean> {
  return sql<boolean>`(exists (select 1 from request_invoices di
      left join invoice_payments dp on dp.invoice_id = di.id
      where di.request_number = ${requestNumber}
        and (di.file_key = ${key} or di.remittance_advice_key = ${key} or dp.remittance_advice_key = ${key}))
    or exists (select 1 from request_results dr
      where dr.request_number = ${requestNumber} and dr.file_key = ${key}
        and (dr.discarded_at is not null
          or (dr.quality_assured_at is null and not dr.quality_assurance_skipped))))`;
}
