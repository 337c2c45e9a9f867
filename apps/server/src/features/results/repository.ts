import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

// SQL of request_results. Every read goes through request_results_request_idx (request_number,
// created_at) or the primary key, so it stays cheap with a million requests.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function selectResults(db: DbOrTrx) {
  return db
    .selectFrom('request_results as r')
    .leftJoin('files as f', 'f.key', 'r.file_key')
    .leftJoin('users as cu', 'cu.id', 'r.created_by')
    .leftJoin('users as qu', 'qu.id', 'r.quality_assured_by')
    .selectAll('r')
    .select([
      'f.name as file_name',
      'f.removed_at as file_removed_at',
      'cu.name as created_by_name',
      'qu.name as quality_assured_by_name',
    ]);
}

export type ResultRow = NonNullable<Awaited<ReturnType<typeof findResult>>>;

/** `deliveredOnly`: only what reaches the sender (quality-assured or QA skipped, not discarded). */
export function listResults(
  db: DbOrTrx,
  requestNumber: string,
  options: { deliveredOnly?: boolean; limit?: number } = {},
) {
  let query = selectResults(db).where('r.request_number', '=', requestNumber);
  if (options.deliveredOnly)
    query = query
      .where('r.discarded_at', 'is', null)
      .where((eb) =>
        eb.or([eb('r.quality_assured_at', 'is not', null), eb('r.quality_assurance_skipped', '=', true)]),
      );
  return query
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id')
    .limit(options.limit ?? 500)
    .execute();
}

export async function findResult(db: DbOrTrx, requestNumber: string, resultId: string) {
  if (!UUID.test(resultId)) return undefined;
  return selectResults(db)
    .where('r.request_number', '=', requestNumber)
    .where('r.id', '=', resultId)
    .executeTakeFirst();
}

export async function insertResult(
  db: DbOrTrx,
  values: {
    requestNumber: string;
    fileKey: string;
    tags: Record<string, unknown>;
    /** Null for a result the recipient sent in on the recipient's page. */
    createdBy: string | null;
    qualityAssuranceSkipped: boolean;
  },
): Promise<string> {
  const row = await db
    .insertInto('request_results')
    .values({
      request_number: values.requestNumber,
      file_key: values.fileKey,
      tags: JSON.stringify(values.tags),
      created_at: new Date(),
      created_by: values.createdBy,
      quality_assurance_skipped: values.qualityAssuranceSkipped,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Marks the result quality-assured unless it already is (or was discarded); answers whether this
 * call did it, so two concurrent QAs cannot both succeed.
 */
export async function markQualityAssured(
  db: DbOrTrx,
  resultId: string,
  actorId: string,
  itemTypes: { id: string; name: string }[],
  at = new Date(),
): Promise<boolean> {
  const row = await db
    .updateTable('request_results')
    .set({ quality_assured_at: at, quality_assured_by: actorId, item_types: JSON.stringify(itemTypes) })
    .where('id', '=', resultId)
    .where('quality_assured_at', 'is', null)
    .where('discarded_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function markResultDiscarded(db: DbOrTrx, resultId: string, actorId: string, at = new Date()) {
  const row = await db
    .updateTable('request_results')
    .set({ discarded_at: at, discarded_by: actorId })
    .where('id', '=', resultId)
    .where('discarded_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Results still in play (not discarded) that nobody has quality-assured nor skipped QA for. */
export async function countResultsAwaitingQa(db: DbOrTrx, requestNumber: string): Promise<number> {
  const row = await db
    .selectFrom('request_results')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('request_number', '=', requestNumber)
    .where('discarded_at', 'is', null)
    .where('quality_assured_at', 'is', null)
    .where('quality_assurance_skipped', '=', false)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * How a file of the request is used: as the file of an invoice or a payment's remittance advice,
 * as the file of a result, and whether one of those results has reached the sender.
 */
export function findFileOwner(db: DbOrTrx, key: string) {
  return db
    .selectFrom('files')
    .select(['owner_type', 'owner_id', 'classification'])
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Whether a not-blocked attachment of the request's correspondence has this key. */
export async function isCorrespondenceAttachment(
  db: DbOrTrx,
  requestNumber: string,
  key: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('correspondence')
    .select('id')
    .where('request_number', '=', requestNumber)
    .where(
      sql<boolean>`exists (select 1 from jsonb_array_elements(attachments) a
        where a ->> 'key' = ${key} and coalesce((a ->> 'blocked')::boolean, false) = false)`,
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A correspondence attachment used as a result or an invoice: classified so (or as both). */
export async function classifyRequestFile(db: DbOrTrx, key: string, kind: 'result' | 'invoice') {
  const other = kind === 'result' ? 'invoice' : 'result';
  await db
    .updateTable('files')
    .set({
      classification: sql`case when classification in (${other}, 'invoiceAndResult') then 'invoiceAndResult' else ${kind} end`,
    })
    .where('key', '=', key)
    .execute();
}

/** Closes a request that is not closed yet; answers whether it did. */
export async function closeRequestRow(db: DbOrTrx, requestNumber: string, actorId: string, at = new Date()) {
  const row = await db
    .updateTable('requests')
    .set({ status: 'closed', closed_at: at, closed_by: actorId })
    .where('request_number', '=', requestNumber)
    .where('status', '<>', 'closed')
    .returning('request_number')
    .executeTakeFirst();
  return row !== undefined;
}
