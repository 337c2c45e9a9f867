import { type Kysely, sql } from 'kysely';
import { createCountTriggers, dropCountTriggers } from '../countTriggers.js';

// Open tasks counted per assignee, for automatic assignment (the candidate with the fewest open tasks
// gets the task) and the handover list. Counting them at each assignment read every open task of
// every candidate: 56,601 buffers and about 100 ms when the demo handler held 182,915 open tasks on
// 1,000,000 requests, and the workflow assigns follow-up tasks all the time. Here a candidate's load
// is the sum of at most SLOTS small rows, the same at any size.
//
// Statement triggers with transition tables keep it in the transaction of every change to tasks
// (like task_completion_days, migration 0026): a bulk insert is one upsert, an update adds the
// difference only, and an update that moves no task in or out of anyone's open set writes nothing.
//
// Row contention: a kept row is locked from the write that changes it until its transaction ends.
// With one row per user, every transaction creating, completing or moving a task of a busy user
// (the workflow assigning follow-ups to the same handler) would wait for the one before it. Each
// user's count is therefore spread over SLOTS rows by task id (id % SLOTS): two transactions
// touching different tasks of one user meet on the same row only one time in SLOTS, and a task
// always lands in the same slot, so its completion takes back what its creation added. Writers
// upsert in (user_id, slot) order so two statements touching several users never deadlock.

const SLOTS = 8;

/** The rows of a transition table as open-task counts (+1 or -1 each) per assignee and slot. */
const countsOf = (table: string, sign: 1 | -1) => sql`
  select r.assigned_to as user_id, (r.id % ${sql.lit(SLOTS)})::smallint as slot, ${sql.raw(String(sign))} * count(*) as n
  from ${sql.raw(table)} r where r.completed_at is null and r.assigned_to is not null
  group by 1, 2`;

const upsert = (source: ReturnType<typeof sql>) => sql`
  insert into user_open_tasks as u (user_id, slot, n)
  select user_id, slot, sum(n) from (${source}) c
  group by 1, 2 having sum(n) <> 0
  order by 1, 2
  on conflict (user_id, slot) do update set n = u.n + excluded.n`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // No foreign key to users: deleting a user sets its tasks' assignee to null, which this table's
  // trigger counts down to zero in the same statement.
  await sql`create table user_open_tasks (
    user_id text not null,
    slot smallint not null,
    n integer not null,
    primary key (user_id, slot)
  )`.execute(db);
  await createCountTriggers(db, 'user_open_tasks', 'tasks', {
    insert: upsert(countsOf('new_rows', 1)),
    update: upsert(sql`${countsOf('new_rows', 1)} union all ${countsOf('old_rows', -1)}`),
    delete: upsert(countsOf('old_rows', -1)),
  });
  // What is there already.
  await sql`${sql.raw(upsert(countsOf('tasks', 1)).compile(db).sql)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropCountTriggers(db, 'user_open_tasks', 'tasks');
  await sql`drop table if exists user_open_tasks`.execute(db);
}
