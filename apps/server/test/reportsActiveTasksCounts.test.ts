import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../src/db/migrations/20261129_3001_open_task_days.js';
import { invalidateConfigurationCache } from '../src/features/configuration/cache.js';
import type { ReportContext } from '../src/features/reports/definition.js';
import { calendarCte, holidaySetOf, localDate } from '../src/features/reports/queries/calendar.js';
import type { ReportFilters } from '../src/features/reports/queries/filters.js';
import { TASK_OVERDUE_NOW, taskConditions } from '../src/features/reports/queries/tasksBase.js';
import { reportContext } from '../src/features/reports/service.js';
import { createTestContext, type TestContext } from './helpers.js';
import { REPORT_ACTORS } from './support/reportActors.js';
import { getReport, type ReportData, seedReportData } from './support/reports.js';

// The Active Tasks summary reads the counts open_task_days keeps (migration 20261129_3001) per local
// trigger and due day, with the tasks due today read from tasks. Here its answer is compared with
// the query it used before (kept below as the reference: every open task one by one), as the
// administrator and a Globex manager, under each filter, after every kind of change to tasks: bulk
// and single inserts triggered and due around Sydney midnights, today (before and after now),
// overdue and not, without a due time and on 9999-12-31; completing, re-opening, moving (scope,
// type), changing due dates and deleting, one row and many rows at a time. And the kept counts with
// a fresh count.

const TZ = 'Australia/Sydney';
const ACME = '/org/acme/';
const SYDNEY = '/org/acme/branch/sydney/';
const GLOBEX = '/org/globex/';

let t: TestContext;
let d: ReportData;
/** Today in Sydney by the database's clock, and the instants the tasks are placed at. */
let today: string;
let dayStart: (offset: number) => Date;
let beforeNow: Date;
let afterNow: Date;

const day = (offset: number) => {
  const x = new Date(`${today}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() + offset);
  return x.toISOString().slice(0, 10);
};
const minutes = (at: Date, n: number) => new Date(at.getTime() + n * 60_000);

beforeAll(async () => {
  t = await createTestContext();
  d = await seedReportData(t);
  const { rows } = await sql<{ today: string; starts: Date[]; now: Date }>`
    select (now() at time zone ${TZ})::date::text as today, now() as now,
      array(select ((now() at time zone ${TZ})::date + k)::timestamp at time zone ${TZ}
            from generate_series(-12, 3) k order by k) as starts`.execute(t.db);
  const r = rows[0];
  if (!r) throw new Error('no clock');
  today = r.today;
  const starts = r.starts.map((s) => new Date(s));
  dayStart = (offset: number) => {
    const s = starts[offset + 12];
    if (!s) throw new Error(`no day ${offset}`);
    return s;
  };
  // Due today, either side of now (a few minutes off, so the two queries compared agree on it).
  const now = new Date(r.now).getTime();
  beforeNow = new Date(Math.max(dayStart(0).getTime() + 60_000, now - 5 * 60_000));
  afterNow = new Date(Math.min(dayStart(1).getTime() - 60_000, now + 5 * 60_000));
  // Globex keeps holidays of its own (the last days, weekdays among them): a second holiday set,
  // so the calendar is joined per set, by scope.
  await sql`insert into configuration_entries (configuration_id, id, parent_id, type, name, "order", is_default, data)
    select e.configuration_id, 'publicHolidaysGlobex', e.parent_id, 'publicHolidaysEntry', 'Globex holidays', 90, false,
      ${JSON.stringify({ dates: [day(-10), day(-3), day(-2), day(-1)] })}::jsonb
    from configuration_entries e join configurations c on c.id = e.configuration_id
    where c.scope_path = ${GLOBEX} and e.id = 'requestSettings'`.execute(t.db);
  invalidateConfigurationCache(t.db);
  // Numbers the days of both sets in business_calendar before the first analyze (compareAll).
  await reportContext(t.db, ACTORS.admin);
});
afterAll(async () => {
  await t?.close();
});

const ACTORS = REPORT_ACTORS;

/** The report context of each actor (the holidays do not change here). */
const contexts: Partial<Record<'admin' | 'globex', ReportContext>> = {};

/** The former summary query: every open task of the filters, one row each. */
async function reference(who: 'admin' | 'globex', f: ReportFilters) {
  const ctx = contexts[who] ?? { ...(await reportContext(t.db, ACTORS[who])), db: t.db };
  contexts[who] = ctx;
  const h = ctx.holidays;
  const { rows } = await sql<Record<string, number | string>>`
      with cal as materialized (${calendarCte(h)}),
      x as (
        select t.type, ${holidaySetOf(h, sql.ref('t.scope'))} as set_id,
          ${localDate(sql.ref('t.triggered_at'), h)} as from_d, ${TASK_OVERDUE_NOW} as overdue
        from tasks t where ${taskConditions(ctx, f, 'active')}
      )
      select x.type as "taskType", count(*)::int as active,
        (count(*) filter (where not x.overdue))::int as "onTime", (count(*) filter (where x.overdue))::int as overdue,
        avg(greatest(0, c2.n - c1.n))::float8 as "businessDays"
      from x
        join cal c1 on c1.set_id = x.set_id and c1.d = x.from_d
        join cal c2 on c2.set_id = x.set_id and c2.d = ${ctx.today}::date
      group by x.type order by x.type`.execute(t.db);
  return rows;
}

function filters(): ReportFilters[] {
  return [
    {},
    { date: 'triggeredAt', from: day(-3), to: day(0) },
    { from: day(-3) },
    { from: day(-3), to: day(-3) },
    { to: day(-4) },
    { date: 'triggeredAt', from: '2026-06-01', to: '2026-06-30' },
    { date: 'dueAt' },
    { date: 'dueAt', from: day(0), to: day(0) },
    { date: 'dueAt', from: day(1) },
    { date: 'dueAt', to: day(-1) },
    { date: 'dueAt', from: day(-1) },
    { date: 'dueAt', from: day(-1), to: day(0) },
    { scope: ACME },
    { scope: SYDNEY, date: 'dueAt', from: day(-2) },
    { scope: GLOBEX, from: day(-3) },
    { taskType: 'senderActionRequired' },
    { taskType: 'senderActionRequired', date: 'dueAt', from: day(0) },
    { taskType: 'followUp', date: 'dueAt', to: day(0) },
    { taskType: 'qualityAssureResult', from: day(-1) },
  ];
}

let compared = 0;
async function compare(who: 'admin' | 'globex', f: ReportFilters) {
  const { query, answer } = await getReport(t, d.cookies[who], '/reports/tasks/active', f);
  const want = await reference(who, f);
  const label = `${who} ${query}`;
  expect(
    answer.rows.map((r: Record<string, unknown>) => ({
      taskType: r.taskType,
      active: r.active,
      onTime: r.onTime,
      overdue: r.overdue,
      businessDays: r.businessDays,
    })),
    label,
  ).toEqual(want);
  expect(answer.chart, label).toEqual(
    want.length === 0
      ? null
      : {
          title: 'activeByType',
          categories: want.map((r) => r.taskType),
          series: ['onTime', 'overdue'].map((key) => ({ key, values: want.map((r) => r[key]) })),
        },
  );
  compared++;
  return want;
}

async function compareAll() {
  // Fresh tables have no statistics: without them the planner loops over the 30 years of calendar
  // days for each task (a quarter of a second per query here). Autovacuum sees to it in a database
  // that lives.
  await sql`analyze business_calendar, tasks, open_task_days`.execute(t.db);
  for (const f of filters()) await compare('admin', f);
  for (const f of filters().filter((x) => !x.scope)) await compare('globex', f);
  const { rows } = await sql<Record<string, unknown>>`
    with fresh as (
      select scope, type, (triggered_at at time zone ${TZ})::date as triggered_on,
        (due_at at time zone ${TZ})::date as due_on, count(*)::int as n
      from tasks where completed_at is null group by 1, 2, 3, 4
    ),
    kept as (
      select scope, type, triggered_on, due_on, sum(n)::int as n from open_task_days
      group by 1, 2, 3, 4 having sum(n) <> 0
    )
    select * from fresh full join kept
      on kept.scope = fresh.scope and kept.type = fresh.type and kept.triggered_on = fresh.triggered_on
        and kept.due_on is not distinct from fresh.due_on
    where fresh.n is distinct from kept.n`.execute(t.db);
  expect(rows).toEqual([]);
  // Nothing below zero, and no emptied row left behind.
  const negative = await sql`select * from open_task_days where n <= 0`.execute(t.db);
  expect(negative.rows).toEqual([]);
}

/** Ids of open tasks of a kind, by subject. */
async function ids(subject: string): Promise<string[]> {
  const rows = await t.db
    .selectFrom('tasks')
    .select('id')
    .where('subject', '=', subject)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

describe('Active Tasks from the kept counts', () => {
  it('gives the figures of the former query for new tasks around midnights, today and overdue', async () => {
    const scopes = [ACME, SYDNEY, GLOBEX];
    const types = ['followUp', 'qualityAssureResult', 'senderActionRequired'];
    const triggers = [
      minutes(dayStart(-3), -1),
      minutes(dayStart(-3), 1),
      minutes(dayStart(-1), 600),
      minutes(dayStart(0), 1),
      minutes(dayStart(-10), 720),
      minutes(dayStart(1), 60),
    ];
    const dues: (Date | null)[] = [
      null,
      minutes(dayStart(0), -1),
      dayStart(0),
      beforeNow,
      afterNow,
      dayStart(1),
      minutes(dayStart(-2), 1),
      new Date('9999-12-31T00:00:00Z'),
      minutes(dayStart(3), -1),
    ];
    const values = [];
    for (let i = 0; i < 60; i++)
      values.push({
        type: types[i % 3] ?? 'followUp',
        subject: `bulk${i % 4}`,
        scope: scopes[Math.floor(i / 3) % 3] ?? ACME,
        triggered_at: triggers[i % triggers.length] ?? dayStart(0),
        due_at: dues[i % dues.length] ?? null,
      });
    // One statement of many rows, then single ones.
    await t.db.insertInto('tasks').values(values).execute();
    for (const [i, due] of dues.entries())
      await t.db
        .insertInto('tasks')
        .values({
          type: 'followUp',
          subject: 'single',
          scope: scopes[i % 3] ?? ACME,
          triggered_at: triggers[i % triggers.length] ?? dayStart(0),
          due_at: due,
        })
        .execute();
    await compareAll();
    expect(contexts.admin?.holidays.sets).toHaveLength(2);
    // What the data is meant to cover: each type, overdue and on time, tasks due today both ways.
    const all = await compare('admin', {});
    const mine = all.filter((r) => r.taskType === 'followUp' || r.taskType === 'qualityAssureResult');
    expect(mine).toHaveLength(2);
    expect(mine.every((r) => Number(r.overdue) > 0 && Number(r.onTime) > 0)).toBe(true);
    const dueToday = await compare('admin', { date: 'dueAt', from: day(0), to: day(0) });
    expect(dueToday.some((r) => Number(r.overdue) > 0 && Number(r.onTime) > 0)).toBe(true);
  });

  it('follows completions and re-openings, one row and many', async () => {
    const [first] = await ids('single');
    await t.db
      .updateTable('tasks')
      .set({ completed_at: new Date(), completed_by: 'radmin' })
      .where('id', '=', first ?? '0')
      .execute();
    await t.db
      .updateTable('tasks')
      .set({ completed_at: new Date(), completed_by: 'radmin' })
      .where('subject', '=', 'bulk0')
      .execute();
    await compareAll();
    await t.db
      .updateTable('tasks')
      .set({ completed_at: null, completed_by: null })
      .where('id', '=', first ?? '0')
      .execute();
    const bulk0 = await ids('bulk0');
    await t.db
      .updateTable('tasks')
      .set({ completed_at: null, completed_by: null })
      .where('id', 'in', bulk0.slice(0, 8))
      .execute();
    await compareAll();
  });

  it('follows moves to another scope or type', async () => {
    const [, second] = await ids('single');
    await t.db
      .updateTable('tasks')
      .set({ scope: GLOBEX })
      .where('id', '=', second ?? '0')
      .execute();
    await t.db
      .updateTable('tasks')
      .set({ type: 'qualityAssureResult' })
      .where('subject', '=', 'bulk1')
      .execute();
    await t.db
      .updateTable('tasks')
      .set({ scope: SYDNEY, type: 'senderActionRequired' })
      .where('subject', '=', 'bulk2')
      .where('scope', '=', GLOBEX)
      .execute();
    await compareAll();
  });

  it('follows changed due dates: overdue to due today to later, and back', async () => {
    const single = await ids('single');
    await t.db
      .updateTable('tasks')
      .set({ due_at: beforeNow })
      .where('id', '=', single[2] ?? '0')
      .execute();
    await t.db.updateTable('tasks').set({ due_at: afterNow }).where('subject', '=', 'bulk3').execute();
    await compareAll();
    await t.db
      .updateTable('tasks')
      .set({ due_at: minutes(dayStart(-1), 30) })
      .where('subject', '=', 'bulk3')
      .where('type', '=', 'followUp')
      .execute();
    await t.db
      .updateTable('tasks')
      .set({ due_at: null })
      .where('id', '=', single[3] ?? '0')
      .execute();
    await t.db
      .updateTable('tasks')
      .set({ due_at: dayStart(2) })
      .where('subject', '=', 'bulk1')
      .execute();
    await compareAll();
  });

  it('counts the tasks already there when migrated', async () => {
    const db = t.db as unknown as Kysely<unknown>;
    await migration.down(db);
    await migration.up(db);
    await compareAll();
  });

  it('follows deletions, one row and many', async () => {
    const single = await ids('single');
    await t.db
      .deleteFrom('tasks')
      .where('id', '=', single[4] ?? '0')
      .execute();
    await t.db.deleteFrom('tasks').where('subject', '=', 'bulk2').execute();
    await compareAll();
    await t.db.deleteFrom('tasks').where('subject', 'in', ['bulk0', 'bulk1', 'bulk3', 'single']).execute();
    await compareAll();
    expect(compared).toBeGreaterThan(250);
  });
});
