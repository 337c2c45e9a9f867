import { createBusinessCalendar, dateInTimeZone } from '@dossier/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPublicHolidays } from '../src/features/configuration/effective.js';
import { createTestContext, type TestContext } from './helpers.js';
import { at, getReport, mondayOf, type ReportData, seedReportData } from './support/reports.js';
import { insertTestRequest } from './support/requests.js';

// Request Results reads the counts request_result_days keeps (migration 6001) instead of every
// result of the period. Here the report's answer is compared with the same figures worked out from
// the raw rows, one result at a time (local dates, state, business days by the core calendar), after
// inserts, updates of one and of many rows, discards, a delete, results either side of midnight in
// Sydney and a request moved to another scope; and the kept counts with a fresh count.

let t: TestContext;
let d: ReportData;
const TZ = 'Australia/Sydney';

beforeAll(async () => {
  t = await createTestContext();
  d = await seedReportData(t);
  const result = async (requestNumber: string, values: Record<string, unknown>) => {
    const row = await t.db
      .insertInto('request_results')
      .values({ request_number: requestNumber, file_key: `res-${Math.random()}`, ...values })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };
  // Sydney branch: submitted at 23:30 local (13:30 UTC, the same day), results a minute either side
  // of midnight on 15/16 June (both 15 June in UTC), one quality-assured by skipping QA.
  const s1 = await insertTestRequest(t.db, {
    scope: '/org/acme/branch/sydney/',
    prefix: 'SYD',
    status: 'open',
    submittedAt: new Date('2026-06-05T23:30:00+10:00'),
  });
  await result(s1, { created_at: new Date('2026-06-15T23:59:00+10:00') });
  await result(s1, { created_at: new Date('2026-06-16T00:01:00+10:00'), quality_assurance_skipped: true });
  // Submitted on a Friday in May, results in the first days of June and one of the year before.
  const m1 = await insertTestRequest(t.db, {
    scope: '/org/globex/',
    prefix: 'GLM',
    status: 'open',
    submittedAt: at('2026-05-29'),
  });
  const late = await result(m1, { created_at: at('2026-06-01'), quality_assured_at: at('2026-06-02') });
  await result(m1, { created_at: at('2026-06-30', 23) });
  await result(m1, { created_at: at('2026-07-01', 0) });
  await result(m1, { created_at: at('2025-06-10') });
  const gone = await result(m1, { created_at: at('2026-06-12') });
  // A request moved to another scope, after it has results.
  const moved = await insertTestRequest(t.db, {
    scope: '/org/acme/',
    prefix: 'MOV',
    status: 'open',
    submittedAt: at('2026-06-03'),
  });
  await result(moved, { created_at: at('2026-06-04') });
  await result(moved, { created_at: at('2026-06-09'), discarded_at: at('2026-06-10') });

  // Changes after the fact: one result downloaded then discarded, one deleted, many at once.
  await t.db
    .updateTable('request_results')
    .set({ downloaded_at: at('2026-06-20') })
    .where('id', '=', late)
    .execute();
  await t.db
    .updateTable('request_results')
    .set({ discarded_at: at('2026-06-21') })
    .where('id', '=', late)
    .execute();
  await t.db.deleteFrom('request_results').where('id', '=', gone).execute();
  await t.db
    .updateTable('request_results')
    .set({ quality_assured_at: at('2026-06-25') })
    .where('request_number', 'in', [s1, d.n.a2])
    .where('quality_assured_at', 'is', null)
    .execute();
  await t.db
    .updateTable('request_results')
    .set({ created_at: at('2026-06-17') })
    .where('request_number', '=', d.n.g1)
    .execute();
  await t.db
    .updateTable('requests')
    .set({ scope: '/org/globex/' })
    .where('request_number', '=', moved)
    .execute();
});
afterAll(async () => {
  await t?.close();
});

interface Filter {
  from?: string;
  to?: string;
  scope?: string;
  status?: string;
}

const STATES = ['qualityAssured', 'awaitingQa', 'downloaded', 'discarded'] as const;

/** The report's figures from the raw rows, one result at a time. */
async function expected(f: Filter, within: string) {
  const calendar = createBusinessCalendar(await getPublicHolidays(t.db, '/'));
  const raw = await t.db
    .selectFrom('request_results as res')
    .innerJoin('requests as r', 'r.request_number', 'res.request_number')
    .select([
      'r.scope',
      'r.submitted_at',
      'res.created_at',
      'res.quality_assured_at',
      'res.quality_assurance_skipped',
      'res.downloaded_at',
      'res.discarded_at',
    ])
    .execute();
  const rows = raw
    .map((x) => {
      const added = dateInTimeZone(x.created_at, TZ);
      const state = x.discarded_at
        ? 'discarded'
        : x.downloaded_at
          ? 'downloaded'
          : x.quality_assured_at || x.quality_assurance_skipped
            ? 'qualityAssured'
            : 'awaitingQa';
      const businessDays = calendar.businessDaysBetween(dateInTimeZone(x.submitted_at, TZ), added);
      return { scope: x.scope, added, state, businessDays };
    })
    .filter(
      (x) =>
        x.scope.startsWith(within) &&
        (!f.scope || x.scope.startsWith(f.scope)) &&
        (!f.from || x.added >= f.from) &&
        (!f.to || x.added <= f.to) &&
        (!f.status || x.state === f.status),
    );
  const byScope = new Map<string, typeof rows>();
  for (const x of rows) byScope.set(x.scope, [...(byScope.get(x.scope) ?? []), x]);
  const table = [...byScope.keys()].sort().map((scope) => {
    const of = byScope.get(scope) ?? [];
    const count = (s: string) => of.filter((x) => x.state === s).length;
    return {
      scope,
      results: of.length,
      qualityAssured: count('qualityAssured'),
      awaitingQa: count('awaitingQa'),
      downloaded: count('downloaded'),
      discarded: count('discarded'),
      qaRatio: (count('qualityAssured') + count('downloaded')) / of.length,
      businessDays: of.reduce((sum, x) => sum + x.businessDays, 0) / of.length,
    };
  });
  const weeks = [...new Set(rows.map((x) => mondayOf(x.added)))].sort();
  const chart =
    rows.length === 0
      ? null
      : {
          title: 'resultsPerWeek',
          categories: weeks,
          series: STATES.map((key) => ({
            key,
            values: weeks.map((w) => rows.filter((x) => mondayOf(x.added) === w && x.state === key).length),
          })),
        };
  return { table, chart };
}

async function compare(who: 'admin' | 'globex', f: Filter, within: string) {
  const { query, answer } = await getReport(t, d.cookies[who], '/reports/request-results', f);
  const want = await expected(f, within);
  expect(answer.rows.length, `${who} ${query}`).toBe(want.table.length);
  want.table.forEach((row, i) => {
    const got = answer.rows[i];
    const { qaRatio, businessDays, ...counts } = row;
    expect(got, `${who} ${query}`).toMatchObject(counts);
    expect(Number(got?.qaRatio)).toBeCloseTo(qaRatio, 9);
    expect(Number(got?.businessDays)).toBeCloseTo(businessDays, 9);
  });
  expect(answer.chart, `${who} ${query}`).toEqual(want.chart);
  return answer;
}

describe('Request Results from the kept counts', () => {
  it('gives the figures of the raw rows for every filter, as the administrator and a Globex manager', async () => {
    const filters: Filter[] = [
      { from: '2026-06-01', to: '2026-06-30' },
      {},
      { from: '2026-06-15', to: '2026-06-15' },
      { from: '2026-06-16', to: '2026-06-16' },
      { from: '2026-06-01', to: '2026-06-30', scope: '/org/acme/' },
      { from: '2026-06-01', to: '2026-06-30', scope: '/org/acme/branch/sydney/' },
      ...STATES.map((status) => ({ from: '2026-06-01', to: '2026-06-30', status })),
    ];
    for (const f of filters) await compare('admin', f, '/');
    for (const f of filters.filter((x) => !x.scope)) await compare('globex', f, '/org/globex/');
    // The data set covers what it claims to: every state, three scopes, two weeks or more.
    const june = await compare('admin', { from: '2026-06-01', to: '2026-06-30' }, '/');
    expect(june.rows.map((r) => r.scope)).toEqual(['/org/acme/', '/org/acme/branch/sydney/', '/org/globex/']);
    for (const state of STATES) expect(Number(june.totals?.[state])).toBeGreaterThan(0);
  });

  it('keeps counts equal to a fresh count of the results', async () => {
    const { rows } = await sql<{ created_on: string }>`
      with fresh as (
        select (res.created_at at time zone 'Australia/Sydney')::date as created_on, r.scope,
          (r.submitted_at at time zone 'Australia/Sydney')::date as submitted_on,
          case when res.discarded_at is not null then 'discarded'
            when res.downloaded_at is not null then 'downloaded'
            when res.quality_assured_at is not null or res.quality_assurance_skipped then 'qualityAssured'
            else 'awaitingQa' end as state, count(*)::int as n
        from request_results res join requests r on r.request_number = res.request_number
        group by 1, 2, 3, 4
      ),
      kept as (select * from request_result_days where n <> 0)
      select * from fresh full join kept using (created_on, scope, submitted_on, state)
      where fresh.n is distinct from kept.n`.execute(t.db);
    expect(rows).toEqual([]);
  });
});
