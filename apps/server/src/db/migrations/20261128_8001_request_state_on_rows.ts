import { type Kysely, sql } from 'kysely';

// Tasks, correspondence and results carry what the dashboard tiles filter by on their request: its
// status, scope, external references and owners (request_status, request_scope, …). The tiles'
// counts stop at 1,001 rows, but with these only on `requests` every counted row probed its request
// (on 1,000,000 requests: 53,019 buffers for the correspondence tile's counts, 23,545 for the active
// tasks', and a count for one scope walked requests until 1,001 of that scope turned up). With them
// on the row, partial indexes in the tiles' order (and by scope) answer a count from the index alone.
//
// Kept by triggers in the writing transaction, as the invoice's scope is (migration 6003): a row
// takes its request's values when it is added or moved to another request, and a request's rows
// follow it when it closes, re-opens, moves scope or changes owner or external references. Tasks
// have no foreign key to requests: a task of a request that does not exist (or no longer does)
// keeps nulls, as the tiles' join found nothing for it.
//
// Taking the values locks the request row (FOR NO KEY UPDATE, as updating it would): otherwise a row
// added while another transaction closes its request would read the status before the close, and the
// close's update of the request's rows would not see the uncommitted row, leaving it "open" for good.
// Writers that lock the request first (the request page's actions) already hold that lock.

const TABLES = ['tasks', 'correspondence', 'request_results'] as const;

/** requests' column → the row's copy of it. */
const KEPT = [
  ['status', 'request_status', 'text'],
  ['scope', 'request_scope', 'text'],
  ['external_user_references', 'request_external_user_references', 'text[]'],
  ['submitted_by', 'request_submitted_by', 'text'],
  ['submitted_on_behalf_of', 'request_submitted_on_behalf_of', 'text'],
] as const;

const kept = KEPT.map(([, column]) => column).join(', ');
const source = KEPT.map(([column]) => `r.${column}`).join(', ');
const fromNew = KEPT.map(([column]) => `new.${column}`).join(', ');

/** The state expression of the results tile, exactly as features/dashboard/repository.ts writes it. */
const RESULT_STATE = `(case when quality_assured_at is not null then 'qualityAssured'
            when quality_assurance_skipped then 'qaSkipped' else 'awaitingQa' end)`;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await sql
      .raw(
        `alter table ${table} ${KEPT.map(([, column, type]) => `add column ${column} ${type}`).join(', ')}`,
      )
      .execute(db);
  }

  // What is there already. Nothing kept from these tables changes here, so the count triggers on
  // them (user_open_tasks, task_completion_days, request_result_days) are switched off for the
  // backfill rather than made to aggregate millions of rows into no change.
  for (const table of TABLES) {
    await sql.raw(`alter table ${table} disable trigger user`).execute(db);
    await sql
      .raw(
        `update ${table} x set (${kept}) = (${source}) from requests r where r.request_number = x.request_number`,
      )
      .execute(db);
    await sql.raw(`alter table ${table} enable trigger user`).execute(db);
  }

  await sql
    .raw(`create function request_state_take() returns trigger language plpgsql as $fn$
    begin
      select ${source} into ${KEPT.map(([, column]) => `new.${column}`).join(', ')}
        from requests r where r.request_number = new.request_number for no key update;
      -- No such request (a task's, which has no foreign key): INTO has set every copy to null.
      return new;
    end $fn$`)
    .execute(db);
  for (const table of TABLES) {
    await sql
      .raw(`create trigger ${table}_request_state before insert or update of request_number on ${table}
      for each row execute function request_state_take()`)
      .execute(db);
  }

  // A request's rows follow it. Only rows whose copy differs are written; a deleted request (tasks
  // have no foreign key) leaves its tasks with nulls, as a task of no request.
  const follow = (values: string, requestNumber: string) =>
    TABLES.map(
      (table) =>
        `update ${table} set (${kept}) = (${values}) where request_number = ${requestNumber}
          and (${kept}) is distinct from (${values});`,
    ).join('\n      ');
  await sql
    .raw(`create function request_state_follow() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'DELETE' then
        ${follow(KEPT.map(([, , type]) => `null::${type}`).join(', '), 'old.request_number')}
      else
        ${follow(fromNew, 'new.request_number')}
      end if;
      return null;
    end $fn$`)
    .execute(db);
  const changed = KEPT.map(([column]) => `old.${column} is distinct from new.${column}`).join(' or ');
  await sql
    .raw(`create trigger requests_state_follow after update of ${KEPT.map(([column]) => column).join(', ')}
      on requests for each row when (${changed}) execute function request_state_follow()`)
    .execute(db);
  await sql
    .raw(`create trigger requests_state_deleted after delete on requests
      for each row execute function request_state_follow()`)
    .execute(db);

  // The tiles' indexes (migration 0017) again, partial on the kept state and covering what the
  // tiles' conditions read, so a count is an index-only scan in the page's order; and by scope, for
  // an actor who sees one scope (a LIKE prefix on the scope, hence text_pattern_ops). An index on
  // the result state expression serves an index-only scan only when it holds the columns the
  // expression is computed from: without them a count of a state cost a heap fetch per row, and
  // the planner preferred a sequential scan from the table's start (3,200 buffers per count).
  await sql`drop index if exists tasks_active_due_idx`.execute(db);
  await sql`drop index if exists tasks_active_type_due_idx`.execute(db);
  await sql`create index tasks_active_due_idx on tasks (due_at, id)
    include (type, request_number, scope, request_scope) where completed_at is null`.execute(db);
  await sql`create index tasks_active_type_due_idx on tasks (type, due_at, id)
    include (request_number, scope, request_scope) where completed_at is null`.execute(db);
  // A type's open tasks in one scope: without it a count for one scope walked every open task of
  // the type (51,425 buffers for the five types at /org/hooli/ on 1,000,000 requests, 2,979 with it).
  await sql`create index tasks_active_type_scope_idx on tasks (type, request_scope text_pattern_ops, due_at)
    include (request_number, scope) where completed_at is null`.execute(db);

  await sql`create index correspondence_open_created_idx on correspondence (created_at desc, id)
    include (kind, request_scope, unverified_sender) where request_status <> 'closed'`.execute(db);
  await sql`create index correspondence_open_kind_created_idx on correspondence (kind, created_at desc, id)
    include (request_scope, unverified_sender) where request_status <> 'closed'`.execute(db);
  await sql`create index correspondence_open_scope_idx on correspondence (request_scope text_pattern_ops, kind)
    include (unverified_sender) where request_status <> 'closed'`.execute(db);

  await sql`drop index if exists request_results_pending_idx`.execute(db);
  await sql`drop index if exists request_results_pending_state_idx`.execute(db);
  await sql`create index request_results_pending_idx on request_results (created_at desc, id)
    include (request_scope, quality_assured_at, quality_assurance_skipped)
    where discarded_at is null and downloaded_at is null`.execute(db);
  await sql
    .raw(`create index request_results_pending_state_idx on request_results (${RESULT_STATE}, created_at desc, id)
    include (request_scope, quality_assured_at, quality_assurance_skipped)
    where discarded_at is null and downloaded_at is null`)
    .execute(db);
  await sql
    .raw(`create index request_results_pending_scope_idx on request_results (request_scope text_pattern_ops, ${RESULT_STATE})
    include (quality_assured_at, quality_assurance_skipped) where discarded_at is null and downloaded_at is null`)
    .execute(db);

  for (const table of TABLES) await sql.raw(`analyze ${table}`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists requests_state_follow on requests`.execute(db);
  await sql`drop trigger if exists requests_state_deleted on requests`.execute(db);
  await sql`drop function if exists request_state_follow()`.execute(db);
  for (const table of TABLES)
    await sql.raw(`drop trigger if exists ${table}_request_state on ${table}`).execute(db);
  await sql`drop function if exists request_state_take()`.execute(db);
  for (const index of [
    'tasks_active_due_idx',
    'tasks_active_type_due_idx',
    'tasks_active_type_scope_idx',
    'correspondence_open_created_idx',
    'correspondence_open_kind_created_idx',
    'correspondence_open_scope_idx',
    'request_results_pending_idx',
    'request_results_pending_state_idx',
    'request_results_pending_scope_idx',
  ])
    await sql.raw(`drop index if exists ${index}`).execute(db);
  for (const table of TABLES) {
    await sql
      .raw(`alter table ${table} ${KEPT.map(([, column]) => `drop column if exists ${column}`).join(', ')}`)
      .execute(db);
  }
  // Migration 0017's indexes as they were.
  await sql`create index tasks_active_due_idx on tasks (due_at, id) where completed_at is null`.execute(db);
  await sql`create index tasks_active_type_due_idx on tasks (type, due_at, id) include (request_number, scope)
    where completed_at is null`.execute(db);
  await sql`create index request_results_pending_idx on request_results (created_at desc, id)
    where discarded_at is null and downloaded_at is null`.execute(db);
  await sql
    .raw(`create index request_results_pending_state_idx on request_results (${RESULT_STATE}, created_at desc, id)
    where discarded_at is null and downloaded_at is null`)
    .execute(db);
}
