import { type Kysely, sql } from 'kysely';

// The Retention page's count of closed requests a legal hold keeps, per scope (issue 36): without
// an index it read every closed request of the scope past the cutoff to find the few held ones
// (708 ms for /org/acme/ at 1,000,000 requests, most of the page's time). Held requests are few, so
// the partial index is small.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index requests_legal_hold_idx on requests (scope, closed_at)
    where legal_hold_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists requests_legal_hold_idx`.execute(db);
}
