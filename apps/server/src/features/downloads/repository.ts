import { expressionBuilder, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { visibleRequests } from '../requests/policy.js';

// SQL of the download-files list. The list is read newest QA first through the partial index
// request_results_downloadable_idx (migration 0009: QA'd, not downloaded, not discarded), joined
// to the requests the actor may view, and stops at the limit: it never reads the whole set.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function listDownloadableResults(
  db: DbOrTrx,
  visible: ReturnType<typeof visibleRequests>,
  limit: number,
) {
  return db
    .selectFrom('request_results as r')
    .innerJoin('requests', 'requests.request_number', 'r.request_number')
    .leftJoin('files as f', 'f.key', 'r.file_key')
    .leftJoin('users as qu', 'qu.id', 'r.quality_assured_by')
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
      'f.name as file_name',
      'requests.applicant_name',
    ])
    .where('r.quality_assured_at', 'is not', null)
    .where('r.downloaded_at', 'is', null)
    .where('r.discarded_at', 'is', null)
    .where(() => visible(expressionBuilder<Database, 'requests'>()))
    .orderBy('r.quality_assured_at', 'desc')
    .orderBy('r.id')
    .limit(limit)
    .execute();
}

export type DownloadableRow = Awaited<ReturnType<typeof listDownloadableResults>>[number];

/** The result with what deciding on it needs, locked for the change. */
export async function findResultForUpdate(db: DbOrTrx, resultId: string) {
  if (!UUID.test(resultId)) return undefined;
  return db
    .selectFrom('request_results')
    .select(['id', 'request_number', 'quality_assured_at', 'downloaded_at', 'discarded_at'])
    .where('id', '=', resultId)
    .forUpdate()
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
