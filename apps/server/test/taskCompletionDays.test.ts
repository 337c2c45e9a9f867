import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// task_completion_days (migration 0026) must always equal grouping the completed tasks themselves,
// whatever inserts, updates and deletes did to them, one row or many at a time.

let t: TestContext;
let requestNumber: string;

const fromTasks = async () =>
  (
    await sql<{ key: string; n: number }>`
      select concat_ws(' ', (completed_at at time zone 'Australia/Sydney')::date, scope, type,
        coalesce(completed_by, ''), (triggered_at at time zone 'Australia/Sydney')::date,
        coalesce(was_overdue, completed_at > due_at, false)) as key, count(*)::int as n
      from tasks where completed_at is not null group by 1 order by 1`.execute(t.db)
  ).rows;

const fromCounts = async () =>
  (
    await sql<{ key: string; n: number }>`
      select concat_ws(' ', completed_on, scope, type, completed_by, triggered_on, overdue) as key, n
      from task_completion_days where n <> 0 order by 1`.execute(t.db)
  ).rows;

beforeAll(async () => {
  t = await createTestContext();
  requestNumber = await insertTestRequest(t.db, { scope: '/org/acme/', prefix: 'ACM' });
});
afterAll(() => t.close());

describe('the completed task counts of the reports', () => {
  it('follow inserts, completions, changes, re-opening and deletes', async () => {
    // Ten tasks at once, half completed (one of them late, one just after midnight in Sydney).
    await sql`insert into tasks (type, subject, request_number, scope, triggered_at, due_at, completed_at, completed_by)
      select case when g % 2 = 0 then 'followUp' else 'issueRequest' end, 'Task', ${requestNumber}, '/org/acme/',
        timestamptz '2026-03-02 09:00+11' + make_interval(days => g),
        timestamptz '2026-03-05 17:00+11' + make_interval(days => g),
        case when g < 5 then timestamptz '2026-03-04 00:30+11' + make_interval(days => g * 2) end,
        case when g < 5 then 'handler' end
      from generate_series(0, 9) g`.execute(t.db);
    expect(await fromCounts()).toEqual(await fromTasks());
    expect((await fromTasks()).reduce((n, r) => n + r.n, 0)).toBe(5);

    // Completing the rest in one statement, one of them by nobody in particular.
    await sql`update tasks set completed_at = triggered_at + interval '1 day',
      completed_by = case when type = 'followUp' then 'handler' end where completed_at is null`.execute(t.db);
    expect(await fromCounts()).toEqual(await fromTasks());

    // A completion moved to another day, one re-opened, one marked overdue, an unrelated change.
    await sql`update tasks set completed_at = completed_at + interval '3 days' where id = (select min(id) from tasks)`.execute(
      t.db,
    );
    await sql`update tasks set completed_at = null, completed_by = null where id = (select max(id) from tasks)`.execute(
      t.db,
    );
    await sql`update tasks set was_overdue = true where id = (select min(id) + 1 from tasks)`.execute(t.db);
    await sql`update tasks set subject = 'Renamed'`.execute(t.db);
    expect(await fromCounts()).toEqual(await fromTasks());

    await sql`delete from tasks where type = 'followUp'`.execute(t.db);
    expect(await fromCounts()).toEqual(await fromTasks());
    await sql`delete from tasks`.execute(t.db);
    expect(await fromCounts()).toEqual([]);
  });
});
