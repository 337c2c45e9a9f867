import { type Kysely, sql } from 'kysely';

// Retention, legal hold and erasure on request (issue 36). A request records when its files were
// removed from storage and when its applicant was de-identified (each compared with closed_at, so a
// request re-opened and closed again is due again), and its legal hold: when, by whom, why. A file
// row stays when its bytes are removed and says when. Each retention pass and each erasure is a
// row of retention_runs: what kind, how many, which requests; never the content.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table requests
    add column files_removed_at timestamptz,
    add column de_identified_at timestamptz,
    add column legal_hold_at timestamptz,
    add column legal_hold_by text references users (id),
    add column legal_hold_reason text`.execute(db);
  await sql`alter table files add column removed_at timestamptz`.execute(db);
  // What the daily pass looks for, without walking the requests it already did.
  await sql`create index requests_files_due_idx on requests (scope, closed_at)
    where status = 'closed' and legal_hold_at is null
      and (files_removed_at is null or files_removed_at < closed_at)`.execute(db);
  await sql`create index requests_de_identify_due_idx on requests (scope, closed_at)
    where status = 'closed' and legal_hold_at is null
      and (de_identified_at is null or de_identified_at < closed_at)`.execute(db);
  await sql`create table retention_runs (
    id uuid primary key default gen_random_uuid(),
    kind text not null check (kind in ('scheduled', 'manual', 'erasure')),
    started_at timestamptz not null default now(),
    finished_at timestamptz,
    actor text references users (id),
    requested_by text,
    reason text,
    scopes text[] not null default '{}',
    files_removed integer not null default 0,
    requests_de_identified integer not null default 0,
    request_numbers text[] not null default '{}',
    left_requests jsonb not null default '[]'
  )`.execute(db);
  await sql`create index retention_runs_started_idx on retention_runs (started_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table retention_runs`.execute(db);
  await sql`alter table files drop column removed_at`.execute(db);
  await sql`alter table requests drop column files_removed_at, drop column de_identified_at,
    drop column legal_hold_at, drop column legal_hold_by, drop column legal_hold_reason`.execute(db);
}
