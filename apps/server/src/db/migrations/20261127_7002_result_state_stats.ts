import { type Kysely, sql } from 'kysely';

// Statistics on a result's state as the dashboard's results tile counts it (the expression of
// request_results_pending_state_idx, migration 0017). PostgreSQL keeps no statistics for the
// expression of a partial index, so it guessed 995 rows for every state; the tile's capped counts
// then read the whole state through a bitmap (65,753 and 133,333 index entries on 1,000,000
// requests), which cannot stop at the cap. With the real share of each state known, the counts
// read rows in an order that stops after COUNT_CAP + 1 of them.

const STATE = sql`(case when quality_assured_at is not null then 'qualityAssured'
  when quality_assurance_skipped then 'qaSkipped' else 'awaitingQa' end)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create statistics request_results_state_stats on (${STATE}) from request_results`.execute(db);
  await sql`analyze request_results`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop statistics if exists request_results_state_stats`.execute(db);
}
