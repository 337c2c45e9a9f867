import { type Kysely, sql } from 'kysely';
import { createCountFunction, createCountTriggers, dropCountTriggers, localDay } from '../countTriggers.js';

// Requests counted per (status, scope, submission day, close day): what the Closed Requests and Open
// Requests reports group a year of requests into. On 1,000,000 requests a year is ~245,000 closed
// and ~110,000 open requests, each aggregated with its business days (1.1-1.4 s); the same year is
// some ten thousand rows here. The pended days of the few requests with a pending task are still
// worked out from their tasks by the reports (they depend on the holidays of the day). A close day
// of 'infinity' stands for none (requests not closed). Days are Australia/Sydney days.
// Inserts and deletes are counted by statement triggers with transition tables (set-based: a bulk
// insert is one upsert); an update by a row trigger that runs only when one of the four changes, so
// the many other updates of a request cost the WHEN test alone.

const CLOSED_ON = (table: string) => sql`coalesce(${localDay(`${table}.closed_at`)}, 'infinity'::date)`;

const countsOf = (table: string, sign: string) => sql`
  select ${sql.raw(table)}.status, ${sql.raw(table)}.scope, ${localDay(`${table}.submitted_at`)} as submitted_on,
    ${CLOSED_ON(table)} as closed_on, ${sql.raw(sign)} * count(*) as n
  from ${sql.raw(table)} group by 1, 2, 3, 4`;

const upsert = (source: ReturnType<typeof sql>) => sql`
  insert into request_days as d (status, scope, submitted_on, closed_on, n)
  select status, scope, submitted_on, closed_on, sum(n) from (${source}) c
  group by 1, 2, 3, 4 having sum(n) <> 0
  -- One order for every writer, so two transactions touching the same days never deadlock.
  order by 1, 2, 3, 4
  on conflict (status, closed_on, scope, submitted_on) do update set n = d.n + excluded.n`;

const one = (row: 'old' | 'new', sign: string) => sql`
  select ${sql.raw(row)}.status, ${sql.raw(row)}.scope, ${localDay(`${row}.submitted_at`)} as submitted_on,
    ${CLOSED_ON(row)} as closed_on, ${sql.raw(sign)} as n`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table request_days (
    status text not null,
    scope text not null,
    submitted_on date not null,
    closed_on date not null,
    n integer not null,
    primary key (status, closed_on, scope, submitted_on)
  )`.execute(db);
  // Open Requests reads the rows not closed by submission day.
  await sql`create index request_days_open_idx on request_days (submitted_on) include (status, scope, n)
    where status <> 'closed'`.execute(db);
  await createCountTriggers(db, 'request_days', 'requests', {
    insert: upsert(countsOf('new_rows', '1')),
    delete: upsert(countsOf('old_rows', '-1')),
  });
  // An update moves one request's count (a row trigger, so an ordinary update of a request costs
  // only the WHEN test).
  await createCountFunction(
    db,
    'request_days_on_update',
    upsert(sql`${one('old', '-1')} union all ${one('new', '1')}`),
  );
  await sql`create trigger request_days_update after update of status, scope, submitted_at, closed_at on requests
    for each row when (old.status is distinct from new.status or old.scope is distinct from new.scope
      or old.submitted_at is distinct from new.submitted_at or old.closed_at is distinct from new.closed_at)
    execute function request_days_on_update()`.execute(db);
  // What is there already.
  await sql`${sql.raw(upsert(countsOf('requests', '1')).compile(db).sql)}`.execute(db);
  // Planned from statistics from the first report on, not from a guess about an empty table.
  await sql`analyze request_days`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropCountTriggers(db, 'request_days', 'requests');
  await sql`drop table if exists request_days`.execute(db);
}
