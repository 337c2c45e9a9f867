import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// user_open_tasks (migration 7001), which assignment reads for each candidate's load, must always
// equal counting each user's open tasks, whatever inserts, completions, reassignments and deletes
// did to them, one row or many at a time.

let t: TestContext;
let requestNumber: string;

const fromTasks = async () =>
  (
    await sql<{ user_id: string; n: number }>`
      select assigned_to as user_id, count(*)::int as n from tasks
      where completed_at is null and assigned_to is not null group by 1 order by 1`.execute(t.db)
  ).rows;

const fromCounts = async () =>
  (
    await sql<{ user_id: string; n: number }>`
      select user_id, sum(n)::int as n from user_open_tasks group by 1 having sum(n) <> 0 order by 1`.execute(
      t.db,
    )
  ).rows;

beforeAll(async () => {
  t = await createTestContext();
  requestNumber = await insertTestRequest(t.db, { scope: '/org/acme/', prefix: 'ACM' });
  for (const id of ['ada', 'ben', 'cy']) await createUser(t.db, { id });
});
afterAll(() => t.close());

describe('the kept open-task count per user', () => {
  it('follows inserts, completions, reassignments, re-opening and deletes', async () => {
    // Thirty tasks at once over three users and nobody, a few already completed.
    await sql`insert into tasks (type, subject, request_number, scope, assigned_to, completed_at)
      select 'followUp', 'Task', ${requestNumber}, '/org/acme/',
        (array['ada', 'ben', 'cy', null])[g % 4 + 1], case when g % 7 = 0 then now() end
      from generate_series(0, 29) g`.execute(t.db);
    expect(await fromCounts()).toEqual(await fromTasks());
    expect((await fromTasks()).reduce((n, r) => n + r.n, 0)).toBe(19);

    // Completing some, one at a time and several in one statement.
    await sql`update tasks set completed_at = now() where id = (select min(id) from tasks where completed_at is null)`.execute(
      t.db,
    );
    await sql`update tasks set completed_at = now() where assigned_to = 'ben' and id % 2 = 0`.execute(t.db);
    expect(await fromCounts()).toEqual(await fromTasks());

    // Reassigning: one task, all of a user's, unassigned ones taken, and one released.
    await sql`update tasks set assigned_to = 'cy' where id = (select max(id) from tasks where assigned_to = 'ada')`.execute(
      t.db,
    );
    await sql`update tasks set assigned_to = 'ada' where assigned_to = 'ben'`.execute(t.db);
    await sql`update tasks set assigned_to = 'ben' where assigned_to is null`.execute(t.db);
    await sql`update tasks set assigned_to = null where id = (select min(id) from tasks where assigned_to = 'cy')`.execute(
      t.db,
    );
    expect(await fromCounts()).toEqual(await fromTasks());

    // Re-opening a completed task, moving a completed task (no open count changes), a change that
    // touches no count.
    await sql`update tasks set completed_at = null where id = (select min(id) from tasks where completed_at is not null)`.execute(
      t.db,
    );
    await sql`update tasks set assigned_to = 'cy' where completed_at is not null`.execute(t.db);
    await sql`update tasks set subject = 'Renamed'`.execute(t.db);
    expect(await fromCounts()).toEqual(await fromTasks());

    // Deleting a user leaves its tasks unassigned (foreign key), and so its count at zero.
    await sql`delete from users where id = 'cy'`.execute(t.db);
    expect(await fromCounts()).toEqual(await fromTasks());
    expect((await fromCounts()).some((r) => r.user_id === 'cy')).toBe(false);

    await sql`delete from tasks where assigned_to = 'ada'`.execute(t.db);
    expect(await fromCounts()).toEqual(await fromTasks());
    await sql`delete from tasks`.execute(t.db);
    expect(await fromCounts()).toEqual([]);
  });
});
