import { type Expression, expressionBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

// SQL of the download-files list. The list holds quality-assured results that were not discarded:
// those still to download first, then the downloaded ones (kept, so their disabled button and who
// downloaded them stay in view after Refresh), each group newest QA first. It is read in that order
// through request_results_download_list_idx (migration 0020), joined to the requests the actor may
// download from, and stops at the limit: it never reads the whole set.

/** A condition on `requests`: the requests whose results the actor may download. */
export type RequestCondition = (
  eb: ReturnType<typeof expressionBuilder<Database, 'requests'>>,
) => Expression<SqlBool>;

export function listDownloadableResults(db: DbOrTrx, mayDownload: RequestCondition, limit: number) {
  return (
    db
      .selectFrom('request_results as r')
      .innerJoin('requests', 'requests.request_number', 'r.request_number')
      .leftJoin('files as f', 'f.key', 'r.file_key')
      .leftJoin('users as qu', 'qu.id', 'r.quality_assured_by')
      .leftJoin('users as du', 'du.id', 'r.downloaded_by')
      .select([
        'r.id',
        'r.request_number',
        'r.file_key',
        'r.item_types',
        'r.quality_assured_at',
        'r.quality_assured_by',
        'qu.name as quality_assured_by_name',
        'r.downloaded_at',
        'r.downloaded_by',
        'du.name as downloaded_by_name',
        'f.name as file_name',
        'requests.applicant_name',
        'requests.scope',
        'requests.external_user_references',
      ])
      .where('r.quality_assured_at', 'is not', null)
      .where('r.discarded_at', 'is', null)
      .where(() => mayDownload(expressionBuilder<Database, 'requests'>()))
      // Written as the index's first expression, so the planner reads the index in order.
      .orderBy(sql`(r.downloaded_at is not null)`)
      .orderBy('r.quality_assured_at', 'desc')
      .orderBy('r.id')
      .limit(limit)
      .execute()
  );
}

export type DownloadableRow = Awaited<ReturnType<typeof listDownloadableResults>>[number];

/** The results of a request whose file this is, and whether each has reached the sender. */
export function findResultsOfFile(db: DbOrTrx, requestNumber: string, key: string) {
  return db
    .selectFrom('request_results')
    .select([
      'id',
      sql<boolean>`discarded_at is null
        and (quality_assured_at is not null or quality_assurance_skipped)`.as('delivered'),
    ])
    .where('request_number', '=', requestNumber)
    .where('file_key', '=', key)
    .execute();
}

export async function insertFileDownload(
  db: DbOrTrx,
  row: { fileKey: string; requestNumber: string; userId: string; bySender: boolean; at: Date },
) {
  await db
    .insertInto('file_downloads')
    .values({
      file_key: row.fileKey,
      request_number: row.requestNumber,
      user_id: row.userId,
      by_sender: row.bySender,
      downloaded_at: row.at,
    })
    .execute();
}

/** Marks the results downloaded by the sender side, each the first time only. */
export async function markDownloaded(db: DbOrTrx, resultIds: string[], actorId: string, at: Date) {
  if (resultIds.length === 0) return;
  await db
    .updateTable('request_results')
    .set({ downloaded_at: at, downloaded_by: actorId })
    .where('id', 'in', resultIds)
    .where('downloaded_at', 'is', null)
    .execute();
}
