import { type Kysely, sql } from 'kysely';
import { createCountTriggers, dropCountTriggers } from '../countTriggers.js';

// Open tasks counted per assignee and scope, for the Users report's Active column. The report counted
// every open task of every listed user inside the actor's report scopes and the scope filter straight
// from tasks: 237 ms at the 95th percentile on 3,000,000 requests (36 ms on 100,000), a busy
// handler holding hundreds of thousands of open tasks. Here it sums a few small rows per user and
// scope, the same at any size, with the same scope conditions on this table's scope column.
//
// Kept like user_open_tasks (migration 7001), which automatic assignment reads and which has no
// scope: statement triggers with transition tables in the transaction of every change to tasks, each
// user's count spread over SLOTS rows by task id so that two transactions touching different tasks
// of one busy user rarely wait on the same row, and upserts in key order so two statements touching
// several users never deadlock. A change of scope (a task moved with its request) takes the task out
// of the old scope's rows and adds it to the new one's in the same upsert.

const SLOTS = 8;

/** The rows of a transition table as open-task counts (+1 or -1 each) per assignee, scope and slot. */
const countsOf = (table: string, sign: 1 | -1) => sql`
  select r.assigned_to as user_id, r.scope, (r.id % ${sql.lit(SLOTS)})::smallint as slot,
    ${sql.raw(String(sign))} * count(*) as n
  from ${sql.raw(table)} r where r.completed_at is null and r.assigned_to is not null
  group by 1, 2, 3`;

const upsert = (source: ReturnType<typeof sql>) => sql`
  insert into user_scope_open_tasks as u (user_id, scope, slot, n)
  select user_id, scope, slot, sum(n) from (${source}) c
  group by 1, 2, 3 having sum(n) <> 0
  order by 1, 2, 3
  on conflict (user_id, scope, slot) do update set n = u.n + excluded.n`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // No foreign key to users: deleting a user sets its tasks' assignee to null, which this table's
  // trigger counts down to zero in the same statement. Rows counted down to zero stay (n = 0);
  // readers keep only sums above zero.
  await sql`create table user_scope_open_tasks (
    user_id text not null,
    scope text not null,
    slot smallint not null,
    n integer not null,
    primary key (user_id, scope, slot)
  )`.execute(db);
  await createCountTriggers(db, 'user_scope_open_tasks', 'tasks', {
    insert: upsert(countsOf('new_rows', 1)),
    update: upsert(sql`${countsOf('new_rows', 1)} union all ${countsOf('old_rows', -1)}`),
    delete: upsert(countsOf('old_rows', -1)),
  });
  // What is there already.
  await sql`${sql.raw(upsert(countsOf('tasks', 1)).compile(db).sql)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropCountTriggers(db, 'user_scope_open_tasks', 'tasks');
  await sql`drop table if exists user_scope_open_tasks`.execute(db);
}
