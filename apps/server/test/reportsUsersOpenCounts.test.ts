import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopesWithPermission } from '../src/features/auth/index.js';
import { withinReportScopes, withinScopes } from '../src/features/reports/queries/access.js';
import { inScope } from '../src/features/reports/queries/filters.js';
import { createTestContext, createUser, type TestContext } from './helpers.js';
import { REPORT_ACTORS } from './support/reportActors.js';
import { getAs, type ReportData, seedReportData } from './support/reports.js';

// The Users report's Active column reads the open tasks kept per assignee and scope in
// user_scope_open_tasks (migration 20261129_2001). Here, after creating, completing, re-opening,
// reassigning, moving and deleting tasks (one row and many rows a statement), the report's figures
// through the route, as the administrator and as Globex's manager, with and without the scope
// filter, are compared with the query it used before (every open task counted from tasks), and the
// kept rows with a fresh count.

let t: TestContext;
let d: ReportData;

const ACME = '/org/acme/';
const SYDNEY = '/org/acme/branch/sydney/';
const GLOBEX = '/org/globex/';
const WORKERS = ['wboth', 'wsyd', 'wglobex'];

const ACTORS = REPORT_ACTORS;

beforeAll(async () => {
  t = await createTestContext();
  d = await seedReportData(t);
  await createUser(t.db, { id: 'wboth', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, { id: 'wsyd', scope: SYDNEY, roles: [{ role: 'c:roles:handler', scope: SYDNEY }] });
  await createUser(t.db, {
    id: 'wglobex',
    scope: GLOBEX,
    roles: [{ role: 'c:roles:handler', scope: GLOBEX }],
  });
  // Sixty tasks in one statement over three workers and nobody, in four scopes, some completed.
  await sql`insert into tasks (type, subject, scope, assigned_to, completed_at)
    select 'followUp', 'Task', (array[${ACME}, ${SYDNEY}, ${GLOBEX}, '/'])[g % 4 + 1],
      (array['wboth', 'wsyd', 'wglobex', null])[(g / 4) % 4 + 1], case when g % 5 = 0 then now() end
    from generate_series(0, 59) g`.execute(t.db);
});
afterAll(async () => {
  await t?.close();
});

/** Each listed user's open tasks by the former query: counted over tasks, in the actor's scopes. */
async function reference(who: keyof typeof ACTORS, scope: string | undefined) {
  const actor = ACTORS[who];
  const { rows } = await sql<{ id: string; active: number; own: boolean; holds: boolean }>`
    with u as (
      select id, scope from users
      where ${withinScopes(scopesWithPermission(actor, 'user:view'), sql.ref('users.scope'))}
    ),
    open as (
      select t.assigned_to as user_id, count(*)::int as active
      from tasks t
      where t.completed_at is null and t.assigned_to in (select id from u)
        and ${withinReportScopes(actor, sql.ref('t.scope'))}
        and ${inScope(sql.ref('t.scope'), scope)}
      group by t.assigned_to
    )
    select u.id, coalesce(open.active, 0) as active, ${inScope(sql.ref('u.scope'), scope)} as own,
      open.user_id is not null as holds
    from u left join open on open.user_id = u.id order by u.id`.execute(t.db);
  return rows;
}

interface Row {
  userId: string;
  active: number;
  completed: number;
}

/** The route's answer against the former query; the route's rows by user id. */
async function compare(who: keyof typeof ACTORS, scope: string | undefined, step: string) {
  const query = `filter.from=2026-06-01&filter.to=2026-06-30${scope ? `&filter.scope=${encodeURIComponent(scope)}` : ''}`;
  const res = await getAs(t, d.cookies[who], `/reports/users/filter?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  const rows: Row[] = res.json().rows;
  const got = new Map(rows.map((r) => [r.userId, r]));
  const want = await reference(who, scope);
  const label = `${step}: ${who} ${scope ?? 'all'}`;
  // Listed: every user the actor may view, or with a scope filter those of that scope and those
  // with work there (open by the former query, or completed in the period).
  const listed = want.filter((w) => !scope || w.own || w.holds || (got.get(w.id)?.completed ?? 0) > 0);
  expect([...got.keys()].sort(), label).toEqual(listed.map((w) => w.id));
  for (const w of listed) expect(got.get(w.id)?.active, `${label} ${w.id}`).toBe(w.active);
  return new Map(listed.map((w) => [w.id, w.active]));
}

async function compareAll(step: string) {
  const all = await compare('admin', undefined, step);
  for (const scope of [ACME, SYDNEY, GLOBEX]) await compare('admin', scope, step);
  await compare('globex', undefined, step);
  await compare('globex', GLOBEX, step);
  // The kept rows against a fresh count per assignee and scope.
  const { rows } = await sql`
    with fresh as (
      select assigned_to as user_id, scope, count(*)::int as n from tasks
      where completed_at is null and assigned_to is not null group by 1, 2
    ),
    kept as (select user_id, scope, sum(n)::int as n from user_scope_open_tasks group by 1, 2 having sum(n) <> 0)
    select * from fresh full join kept using (user_id, scope) where fresh.n is distinct from kept.n`.execute(
    t.db,
  );
  expect(rows, step).toEqual([]);
  return all;
}

const oneOf = async (where: ReturnType<typeof sql>) =>
  (await sql<{ id: string }>`select min(id) as id from tasks where ${where}`.execute(t.db)).rows[0]?.id;

describe('the Users report from the kept open-task counts', () => {
  it('gives the figures of the former query through every kind of change to tasks', async () => {
    const start = await compareAll('seeded');
    // What the data is meant to cover: work in several scopes, so the filters and Globex's manager
    // see part of it.
    expect(start.get('wboth')).toBeGreaterThan(0);
    expect(start.get('wsyd')).toBeGreaterThan(0);
    const acme = await compare('admin', ACME, 'seeded');
    expect(acme.get('wboth')).toBeLessThan(start.get('wboth') ?? 0);
    expect((await compare('globex', undefined, 'seeded')).get('wglobex')).toBeGreaterThan(0);

    // Creating: one task, then several in one statement.
    await t.db
      .insertInto('tasks')
      .values({ type: 'followUp', subject: 'One', scope: GLOBEX, assigned_to: 'wboth' })
      .execute();
    await t.db
      .insertInto('tasks')
      .values(
        [ACME, SYDNEY, SYDNEY, GLOBEX].map((scope) => ({
          type: 'followUp',
          subject: 'Many',
          scope,
          assigned_to: 'wsyd',
        })),
      )
      .execute();
    await compareAll('created');

    // Completing: one task, then all of a user's in a scope.
    await sql`update tasks set completed_at = now() where id = ${await oneOf(sql`completed_at is null and assigned_to = 'wboth'`)}`.execute(
      t.db,
    );
    await sql`update tasks set completed_at = now() where completed_at is null and assigned_to = 'wsyd' and scope = ${SYDNEY}`.execute(
      t.db,
    );
    await compareAll('completed');

    // Re-opening: one task, then every completed task of Globex.
    await sql`update tasks set completed_at = null where id = ${await oneOf(sql`completed_at is not null and assigned_to = 'wboth'`)}`.execute(
      t.db,
    );
    await sql`update tasks set completed_at = null, completed_by = null where completed_at is not null and scope = ${GLOBEX}`.execute(
      t.db,
    );
    await compareAll('re-opened');

    // Reassigning: one task, all of a user's, unassigned ones taken, one released, and completed
    // ones (no open count changes).
    await sql`update tasks set assigned_to = 'wglobex' where id = ${await oneOf(sql`completed_at is null and assigned_to = 'wboth'`)}`.execute(
      t.db,
    );
    await sql`update tasks set assigned_to = 'wboth' where assigned_to = 'wsyd' and scope = ${ACME}`.execute(
      t.db,
    );
    await sql`update tasks set assigned_to = 'wsyd' where assigned_to is null and scope like '/org/acme/%'`.execute(
      t.db,
    );
    await sql`update tasks set assigned_to = null where id = ${await oneOf(sql`completed_at is null and assigned_to = 'wglobex'`)}`.execute(
      t.db,
    );
    await sql`update tasks set assigned_to = 'wglobex' where completed_at is not null and assigned_to = 'wboth'`.execute(
      t.db,
    );
    await compareAll('reassigned');

    // Moving (a change of scope): one task from Acme to Globex, then all of Sydney's to Acme, and a
    // move with a reassignment and a completion in the same statement; then a change that touches
    // no count.
    await sql`update tasks set scope = ${GLOBEX} where id = ${await oneOf(sql`completed_at is null and scope = ${ACME}`)}`.execute(
      t.db,
    );
    await sql`update tasks set scope = ${ACME} where scope = ${SYDNEY}`.execute(t.db);
    await sql`update tasks set scope = ${SYDNEY}, assigned_to = 'wsyd',
        completed_at = case when id % 3 = 0 then now() end
      where scope = '/'`.execute(t.db);
    await sql`update tasks set subject = 'Renamed'`.execute(t.db);
    await compareAll('moved');

    // Deleting: one task, all of a scope's, then a worker (its tasks are left unassigned).
    await sql`delete from tasks where id = ${await oneOf(sql`completed_at is null and assigned_to = 'wboth'`)}`.execute(
      t.db,
    );
    await sql`delete from tasks where scope = ${GLOBEX} and assigned_to = 'wboth'`.execute(t.db);
    await compareAll('deleted');
    await sql`delete from users where id = 'wsyd'`.execute(t.db);
    const end = await compareAll('user deleted');
    expect(end.has('wsyd')).toBe(false);
    expect(WORKERS.filter((w) => end.has(w))).toEqual(['wboth', 'wglobex']);
  });
});
