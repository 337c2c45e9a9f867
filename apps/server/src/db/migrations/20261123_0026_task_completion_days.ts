import { type Kysely, sql } from 'kysely';
import { localDay } from '../countTriggers.js';

// Completed tasks counted per (completion day, scope, type, completer, trigger day, overdue): what
// the Completed Tasks and Users reports group a year of tasks into. On 1,000,000 requests a year is
// ~560,000 completed tasks, whose grouping (two time-zone conversions per task) took 0.6–1 s at every
// run; the same year is a few thousand rows here. Statement triggers with transition tables keep the
// counts in the transaction of every change to tasks, set-based (a bulk insert is one upsert), and
// an update adds the difference only. Days are Australia/Sydney days, as everywhere in reports.

const OVERDUE = sql.raw('coalesce(r.was_overdue, r.completed_at > r.due_at, false)');

/** The rows of a transition table as counts (+1 or -1 each), grouped as the table keeps them. */
const countsOf = (table: string, sign: 1 | -1) => sql`
  select r.scope, r.type, coalesce(r.completed_by, '') as completed_by, ${localDay('r.triggered_at')} as triggered_on,
    ${localDay('r.completed_at')} as completed_on, ${OVERDUE} as overdue, ${sql.raw(String(sign))} * count(*) as n
  from ${sql.raw(table)} r where r.completed_at is not null
  group by 1, 2, 3, 4, 5, 6`;

const upsert = (source: ReturnType<typeof sql>) => sql`
  insert into task_completion_days as d (scope, type, completed_by, triggered_on, completed_on, overdue, n)
  select scope, type, completed_by, triggered_on, completed_on, overdue, sum(n) from (${source}) c
  group by 1, 2, 3, 4, 5, 6 having sum(n) <> 0
  -- One order for every writer, so two transactions touching the same days never deadlock.
  order by 5, 1, 2, 3, 4, 6
  on conflict (completed_on, scope, type, completed_by, triggered_on, overdue)
  do update set n = d.n + excluded.n`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table task_completion_days (
    completed_on date not null,
    scope text not null,
    type text not null,
    completed_by text not null,
    triggered_on date not null,
    overdue boolean not null,
    n integer not null,
    primary key (completed_on, scope, type, completed_by, triggered_on, overdue)
  )`.execute(db);
  const insertBody = upsert(countsOf('new_rows', 1)).compile(db).sql;
  const deleteBody = upsert(countsOf('old_rows', -1)).compile(db).sql;
  const updateBody = upsert(sql`${countsOf('new_rows', 1)} union all ${countsOf('old_rows', -1)}`).compile(
    db,
  ).sql;
  for (const [name, body] of [
    ['insert', insertBody],
    ['delete', deleteBody],
    ['update', updateBody],
  ]) {
    await sql`${sql.raw(`create function task_completion_days_on_${name}() returns trigger language plpgsql as $fn$
      begin
        ${body};
        return null;
      end $fn$`)}`.execute(db);
  }
  await sql`create trigger task_completion_days_insert after insert on tasks
    referencing new table as new_rows for each statement execute function task_completion_days_on_insert()`.execute(
    db,
  );
  await sql`create trigger task_completion_days_update after update on tasks
    referencing old table as old_rows new table as new_rows
    for each statement execute function task_completion_days_on_update()`.execute(db);
  await sql`create trigger task_completion_days_delete after delete on tasks
    referencing old table as old_rows for each statement execute function task_completion_days_on_delete()`.execute(
    db,
  );
  // What is there already.
  await sql`${sql.raw(upsert(countsOf('tasks', 1)).compile(db).sql)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['insert', 'update', 'delete']) {
    await sql.raw(`drop trigger if exists task_completion_days_${name} on tasks`).execute(db);
    await sql.raw(`drop function if exists task_completion_days_on_${name}()`).execute(db);
  }
  await sql`drop table if exists task_completion_days`.execute(db);
}
