import { type Expression, expressionBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

// SQL of the download-files list. The list holds quality-assured results that were not discarded:
// those still to download first, then the downloaded ones (kept, so their disabled button and who
// downloaded them stay in view after Refresh), each group newest QA first. It is read in that order
// through request_results_download_list_idx (migration 0020), joined to the requests the actor may
// download from, and stops at the limit: it never reads the whole set.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/** The result with what deciding on it needs, locked for the change. */
export async function findResultForUpdate(db: DbOrTrx, resultId: string, mayDownload: RequestCondition) {
  if (!UUID.test(resultId)) return undefined;
  return db
    .selectFrom('request_results as r')
    .innerJoin('requests', 'requests.request_number', 'r.request_number')
    .select([
      'r.id',
      'r.request_number',
      'r.quality_assured_at',
      'r.downloaded_at',
      'r.discarded_at',
      sql<boolean>`${mayDownload(expressionBuilder<Database, 'requests'>())}`.as('may_download'),
    ])
    .where('r.id', '=', resultId)
    .forUpdate('r')
    .executeTakeFirst();
}

export async function markDownloaded(db: DbOrTrx, resultId: string, actorId: string, at: Date) {
  await db
    .updateTable('request_results')
    .set({ downloaded_at: at, downloaded_by: actorId })
    .where('id', '=', resultId)
    .where(sql<boolean>`downloaded_at is null`)
    .execute();
}
