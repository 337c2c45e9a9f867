import { type Kysely, sql } from 'kysely';

// Indexes of the reports (features/reports), sized for 1,000,000 requests and their tasks. A report
// over a year reads a few hundred thousand rows of one date range and groups them; each index below
// is on that date and carries the columns the report groups and averages on, so the read is an
// index-only scan instead of a visit to every heap page (the requests table is wide: applicant,
// recipient and content documents). The pending index serves the KPI pended-days figures: only
// senderActionRequired and actionDeferred tasks pend the clock, a small share of all tasks.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index requests_report_closed_idx on requests (closed_at) include (scope, submitted_at, request_number)
    where status = 'closed'`.execute(db);
  await sql`create index requests_report_open_idx on requests (submitted_at) include (scope, request_number)
    where status <> 'closed'`.execute(db);
  await sql`create index tasks_report_completed_idx on tasks (completed_at)
    include (type, scope, request_number, triggered_at, due_at, was_overdue, completed_by) where completed_at is not null`.execute(
    db,
  );
  await sql`create index tasks_report_active_idx on tasks (triggered_at)
    include (type, scope, request_number, due_at, assigned_to) where completed_at is null`.execute(db);
  await sql`create index tasks_report_pending_idx on tasks (request_number) include (type, triggered_at, completed_at)
    where type in ('senderActionRequired', 'actionDeferred')`.execute(db);
  await sql`create index request_results_report_idx on request_results (created_at)`.execute(db);
  await sql`analyze requests`.execute(db);
  await sql`analyze tasks`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'requests_report_closed_idx',
    'requests_report_open_idx',
    'tasks_report_completed_idx',
    'tasks_report_active_idx',
    'tasks_report_pending_idx',
    'request_results_report_idx',
  ])
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
}
