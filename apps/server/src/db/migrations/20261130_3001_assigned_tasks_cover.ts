import { type Kysely, sql } from 'kysely';

// The home page counts a user's overdue tasks and those due today up to 101 each. Through
// tasks_assigned_open_idx (assigned_to, due_at) each counted task was fetched from the table to
// check what the count filters by (the request's kept scope and references, migration 8001; the
// message and scope of an inbox task): about 130 rows and buffers per count at 1,000,000 requests,
// most of the page's time. The same index covering those columns makes the counts index-only scans;
// only the five tasks shown are read from the table. It serves every query of the former one.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index tasks_assigned_open_cover_idx on tasks (assigned_to, due_at, id)
    include (request_scope, request_external_user_references, request_number, message_id, scope)
    where completed_at is null`.execute(db);
  await sql`drop index if exists tasks_assigned_open_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists tasks_assigned_open_idx on tasks (assigned_to, due_at)
    where completed_at is null`.execute(db);
  await sql`drop index if exists tasks_assigned_open_cover_idx`.execute(db);
}
