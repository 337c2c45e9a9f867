import { type Kysely, sql } from 'kysely';
import { createCountFunction, createCountTriggers, dropCountTriggers, localDay } from '../countTriggers.js';

// Request results counted per (day added, scope, day of the request's submission, state): what the
// Request Results report groups a year of results into. On 1,000,000 requests a year is ~66,700
// results, each of which looked up its request (requests_pkey, 266,800 buffers) for its scope and
// submission date, 1.5-2 s per query; the same year is a few thousand rows here. Kept as
// task_completion_days is (migration 0026): statement triggers with transition tables on
// request_results add the difference in the transaction of every change, set-based. A result's
// request gives its scope and submission date; a row trigger on requests moves the counts if either
// ever changes (neither does today). A request with results cannot be deleted (the foreign key has
// no cascade), so request deletes need nothing. Days are Australia/Sydney days, as in reports.

// The report's states, in its order of precedence (requestResults.ts).
const STATE = sql.raw(`case when x.discarded_at is not null then 'discarded'
  when x.downloaded_at is not null then 'downloaded'
  when x.quality_assured_at is not null or x.quality_assurance_skipped then 'qualityAssured'
  else 'awaitingQa' end`);

/** Result rows (alias x) with their request (alias r) as counts of `sign` each, grouped as kept. */
const countsOf = (from: string, sign: string) => sql`
  select ${localDay('x.created_at')} as created_on, r.scope, ${localDay('r.submitted_at')} as submitted_on,
    ${STATE} as state, ${sql.raw(sign)} * count(*) as n
  from ${sql.raw(from)}
  group by 1, 2, 3, 4`;

const upsert = (source: ReturnType<typeof sql>) => sql`
  insert into request_result_days as d (created_on, scope, submitted_on, state, n)
  select created_on, scope, submitted_on, state, sum(n) from (${source}) c
  group by 1, 2, 3, 4 having sum(n) <> 0
  -- One order for every writer, so two transactions touching the same days never deadlock.
  order by 1, 2, 3, 4
  on conflict (created_on, scope, submitted_on, state) do update set n = d.n + excluded.n`;

const withRequest = (table: string) => `${table} x join requests r on r.request_number = x.request_number`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table request_result_days (
    created_on date not null,
    scope text not null,
    submitted_on date not null,
    state text not null,
    n integer not null,
    primary key (created_on, scope, submitted_on, state)
  )`.execute(db);
  await createCountTriggers(db, 'request_result_days', 'request_results', {
    insert: upsert(countsOf(withRequest('new_rows'), '1')),
    update: upsert(
      sql`${countsOf(withRequest('new_rows'), '1')} union all ${countsOf(withRequest('old_rows'), '-1')}`,
    ),
    delete: upsert(countsOf(withRequest('old_rows'), '-1')),
  });
  // A request's scope or submission date changing moves its results' counts (a row trigger, so an
  // ordinary update of a request costs only the WHEN test).
  const moved = upsert(sql`
    select ${localDay('x.created_at')} as created_on, old.scope as scope, ${localDay('old.submitted_at')} as submitted_on,
      ${STATE} as state, -count(*) as n
    from request_results x where x.request_number = old.request_number group by 1, 2, 3, 4
    union all
    select ${localDay('x.created_at')}, new.scope, ${localDay('new.submitted_at')}, ${STATE}, count(*)
    from request_results x where x.request_number = new.request_number group by 1, 2, 3, 4`);
  await createCountFunction(db, 'request_result_days_on_request', moved);
  await sql`create trigger request_result_days_request after update of scope, submitted_at on requests
    for each row when (old.scope is distinct from new.scope or old.submitted_at is distinct from new.submitted_at)
    execute function request_result_days_on_request()`.execute(db);
  // What is there already.
  await sql`${sql.raw(upsert(countsOf(withRequest('request_results'), '1')).compile(db).sql)}`.execute(db);
  // Planned from statistics from the first report on, not from a guess about an empty table.
  await sql`analyze request_result_days`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists request_result_days_request on requests`.execute(db);
  await sql`drop function if exists request_result_days_on_request()`.execute(db);
  await dropCountTriggers(db, 'request_result_days', 'request_results');
  await sql`drop table if exists request_result_days`.execute(db);
}
