import { type Kysely, sql } from 'kysely';
import { createCountTriggers, dropCountTriggers, localDay } from '../countTriggers.js';

// Open tasks counted per (scope, type, local trigger day, local due day): what the Active Tasks
// summary groups them into. It used to read every open task of the dates, work out "overdue now"
// and join each to the business-day calendar: 39 ms at 100,000 requests, 244 ms at 1,000,000 and
// 815 ms at 3,000,000. The kept rows give the same figures (reports/activeTasks.ts): the trigger day
// is what the calendar is joined by and what filter.date=triggeredAt bounds, the due day what
// filter.date=dueAt bounds and what decides "overdue now" for every day but today (the tasks due
// today are read from tasks). due_on is null for a task without a due time (never overdue, outside
// any dueAt bounds), hence a unique index with nulls not distinct rather than a primary key.
//
// Statement triggers with transition tables keep it in the transaction of every change to tasks
// (like task_completion_days, migration 0026, and user_open_tasks, 7001): a bulk insert is one
// upsert, an update adds the difference only, and one that moves no open task between keys writes
// nothing. Row contention: the workflow creates tasks of one type and scope, triggered today and
// due on the same day, one transaction after another; with one row per key each would wait for the
// one before it to end. Each key's count is spread over SLOTS rows by task id (a task always lands
// in the same slot), and writers upsert in one order so two statements never deadlock. A row an
// update or delete brings to zero is deleted, so the table holds the day pairs of open tasks only.
// Days are Australia/Sydney days (BUSINESS_TIME_ZONE), as everywhere in reports.

const SLOTS = 4;

/** The open rows of a transition table as counts (+1 or -1 each), grouped as the table keeps them. */
const countsOf = (table: string, sign: 1 | -1) => sql`
  select r.scope, r.type, ${localDay('r.triggered_at')} as triggered_on, ${localDay('r.due_at')} as due_on,
    (r.id % ${sql.lit(SLOTS)})::smallint as slot, ${sql.raw(String(sign))} * count(*) as n
  from ${sql.raw(table)} r where r.completed_at is null
  group by 1, 2, 3, 4, 5`;

const upsert = (source: ReturnType<typeof sql>) => sql`
  insert into open_task_days as d (scope, type, triggered_on, due_on, slot, n)
  select scope, type, triggered_on, due_on, slot, sum(n) from (${source}) c
  group by 1, 2, 3, 4, 5 having sum(n) <> 0
  order by 1, 2, 3, 4, 5
  on conflict (scope, type, triggered_on, due_on, slot) do update set n = d.n + excluded.n`;

/**
 * The rows the upsert just brought to zero, deleted: every open task is completed one day, so
 * without this the table would keep a row of each day pair ever seen and grow with the history. Only
 * the keys of this statement's upsert are looked at (rows it has locked until the transaction
 * ends); a writer waiting on such a row inserts it anew once it is gone (on conflict retries).
 */
const prune = (source: ReturnType<typeof sql>) => sql`
  delete from open_task_days o
  using (select scope, type, triggered_on, due_on, slot from (${source}) c
         group by 1, 2, 3, 4, 5 having sum(n) <> 0) k
  where o.n = 0 and o.scope = k.scope and o.type = k.type and o.triggered_on = k.triggered_on
    and o.due_on is not distinct from k.due_on and o.slot = k.slot`;

/** The body of a trigger function: the upsert, then the pruning of what it emptied. */
const keep = (source: ReturnType<typeof sql>) => sql`${upsert(source)}; ${prune(source)}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table open_task_days (
    scope text not null,
    type text not null,
    triggered_on date not null,
    due_on date,
    slot smallint not null,
    n integer not null
  )`.execute(db);
  await sql`create unique index open_task_days_key on open_task_days
    (scope, type, triggered_on, due_on, slot) nulls not distinct`.execute(db);
  await createCountTriggers(db, 'open_task_days', 'tasks', {
    insert: upsert(countsOf('new_rows', 1)),
    update: keep(sql`${countsOf('new_rows', 1)} union all ${countsOf('old_rows', -1)}`),
    delete: keep(countsOf('old_rows', -1)),
  });
  // What is there already.
  await sql`${sql.raw(upsert(countsOf('tasks', 1)).compile(db).sql)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropCountTriggers(db, 'open_task_days', 'tasks');
  await sql`drop table if exists open_task_days`.execute(db);
}
