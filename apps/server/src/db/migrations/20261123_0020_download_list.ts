import { type Kysely, sql } from 'kysely';

// The download-files list now keeps downloaded results (their button disabled, who and when shown)
// instead of dropping them: quality-assured, not discarded, those still to download first, each
// group newest QA first. This index serves that order and stops at the list's cap; the old one
// covered undownloaded results only and served nothing else.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index request_results_download_list_idx
    on request_results ((downloaded_at is not null), quality_assured_at desc, id)
    where quality_assured_at is not null and discarded_at is null`.execute(db);
  await sql`drop index if exists request_results_downloadable_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists request_results_downloadable_idx on request_results (quality_assured_at desc)
    where quality_assured_at is not null and downloaded_at is null and discarded_at is null`.execute(db);
  await sql`drop index if exists request_results_download_list_idx`.execute(db);
}
