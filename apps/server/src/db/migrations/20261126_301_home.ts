import { type Kysely, sql } from 'kysely';

// The home page (issue 22): when each user last opened it in an earlier session (what changed
// since), and the indexes its lists read in order and stop early on a million requests: the
// requests a user touched last (their request events, newest first) and the requests changed
// most recently (a submitter's "changed since your last visit").

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table home_visits (
    user_id text primary key references users (id) on delete cascade,
    session_id text not null,
    visit_started_at timestamptz not null,
    previous_visit_at timestamptz
  )`.execute(db);
  await sql`create index events_request_actor_idx on events (actor, created_at desc)
    include (aggregate_id) where aggregate_type = 'request' and actor is not null`.execute(db);
  await sql`create index requests_last_activity_idx on requests (last_activity_at desc, request_number)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index requests_last_activity_idx`.execute(db);
  await sql`drop index events_request_actor_idx`.execute(db);
  await sql`drop table home_visits`.execute(db);
}
