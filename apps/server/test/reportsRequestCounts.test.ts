import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGE_BUCKETS } from '../src/features/reports/queries/openRequests.js';
import { KPI_AVERAGES, reportRequests, requestKpiCtes } from '../src/features/reports/queries/requestKpi.js';
import { reportContext } from '../src/features/reports/service.js';
import { createTestContext, type TestContext } from './helpers.js';
import { REPORT_ACTORS } from './support/reportActors.js';
import { at, getReport, type ReportData, seedReportData } from './support/reports.js';
import { insertTestRequest } from './support/requests.js';

// Closed Requests and Open Requests read the counts request_days keeps (migration 6002), with the
// pended days of requests with a pending task worked out from their tasks. Here each report's answer
// is compared with the query it used before, over every request one by one (kept as the reference,
// itself checked against the request page's KPI in reports.test.ts), after re-opening, re-closing,
// moving and deleting requests, closes either side of midnight in Sydney, pending tasks across the
// King's Birthday, and a bulk insert; and the kept counts with a fresh count.

let t: TestContext;
let d: ReportData;

async function pending(type: string, requestNumber: string, scope: string, from: Date, to: Date | null) {
  await t.db
    .insertInto('tasks')
    .values({
      type,
      subject: 'pending',
      scope,
      request_number: requestNumber,
      triggered_at: from,
      completed_at: to,
    })
    .execute();
}

beforeAll(async () => {
  t = await createTestContext();
  d = await seedReportData(t);
  const sydney = '/org/acme/branch/sydney/';
  // Closed a minute either side of midnight in Sydney (the same UTC day), submitted before the
  // holiday, one pended externally across it.
  const s1 = await insertTestRequest(t.db, {
    scope: sydney,
    prefix: 'SYA',
    status: 'closed',
    submittedAt: at('2026-06-04'),
    closedAt: new Date('2026-06-15T23:59:00+10:00'),
  });
  await insertTestRequest(t.db, {
    scope: sydney,
    prefix: 'SYB',
    status: 'closed',
    submittedAt: at('2026-06-04'),
    closedAt: new Date('2026-06-16T00:01:00+10:00'),
  });
  await pending('senderActionRequired', s1, sydney, at('2026-06-05'), at('2026-06-10'));
  // Closed, re-opened (with a deferral still open), closed again a week later.
  const r1 = await insertTestRequest(t.db, {
    scope: sydney,
    prefix: 'SYC',
    status: 'closed',
    submittedAt: at('2026-06-02'),
    closedAt: at('2026-06-05'),
  });
  await t.db
    .updateTable('requests')
    .set({ status: 'open', closed_at: null })
    .where('request_number', '=', r1)
    .execute();
  await pending('actionDeferred', r1, sydney, at('2026-06-09'), null);
  const r2 = await insertTestRequest(t.db, {
    scope: sydney,
    prefix: 'SYD',
    status: 'closed',
    submittedAt: at('2026-06-03'),
    closedAt: at('2026-06-05'),
  });
  await t.db
    .updateTable('requests')
    .set({ status: 'open', closed_at: null })
    .where('request_number', '=', r2)
    .execute();
  await t.db
    .updateTable('requests')
    .set({ status: 'closed', closed_at: at('2026-06-12') })
    .where('request_number', '=', r2)
    .execute();
  // Issued (submitted → open), moved to Globex, and one deleted.
  const m1 = await insertTestRequest(t.db, {
    scope: sydney,
    prefix: 'SYE',
    status: 'submitted',
    submittedAt: at('2026-06-10'),
  });
  await t.db.updateTable('requests').set({ status: 'open' }).where('request_number', '=', m1).execute();
  await t.db
    .updateTable('requests')
    .set({ scope: '/org/globex/' })
    .where('request_number', '=', m1)
    .execute();
  const gone = await insertTestRequest(t.db, {
    scope: sydney,
    prefix: 'SYF',
    status: 'open',
    submittedAt: at('2026-06-11'),
  });
  await t.db.deleteFrom('requests').where('request_number', '=', gone).execute();
  // A bulk insert, one statement: copies of Globex's open request and Acme's closed ones.
  await sql`insert into requests (request_number, reference_number, scope, status, submitted_at, submitted_by,
      applicant, applicant_name, recipient, recipient_name, content, closed_at)
    select 'COPY-' || r.request_number, r.reference_number, r.scope, r.status, r.submitted_at, r.submitted_by,
      r.applicant, r.applicant_name, r.recipient, r.recipient_name, r.content, r.closed_at
    from requests r where r.request_number in (${d.n.o3}, ${d.n.a1}, ${d.n.a2})`.execute(t.db);
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

const ACTORS = REPORT_ACTORS;

/** The report's figures by the former query: every request of the period, one row each. */
async function reference(who: 'admin' | 'globex', f: Filter, closed: boolean, group: RawBuilder<unknown>) {
  const ctx = { ...(await reportContext(t.db, ACTORS[who])), db: t.db };
  const base = reportRequests(ctx, f, { closed, ...(f.status === undefined ? {} : { status: f.status }) });
  const { rows } = await sql<Record<string, unknown>>`
    with ${requestKpiCtes(ctx.holidays, base, ctx.today)}
    select ${group} as key, sum(n)::int as requests, ${KPI_AVERAGES}
    from kpi group by 1 order by 1`.execute(t.db);
  return rows;
}

async function compare(who: 'admin' | 'globex', path: string, f: Filter) {
  const { query, answer } = await getReport(t, d.cookies[who], path, f);
  const closed = path.endsWith('/closed');
  const want = await reference(who, f, closed, sql`scope`);
  const label = `${who} ${path} ${query}`;
  expect(
    answer.rows.map((r) => r.scope),
    label,
  ).toEqual(want.map((r) => r.key));
  want.forEach((row, i) => {
    const got = answer.rows[i];
    expect(got?.requests, label).toBe(row.requests);
    for (const key of [
      'calendarDays',
      'businessDays',
      'businessDaysLessPended',
      'daysPendedInternal',
      'daysPendedExternal',
    ])
      expect(Number(got?.[key]), `${label} ${key}`).toBeCloseTo(Number(row[key]), 9);
  });
  if (closed) {
    const weeks = await reference(who, f, closed, sql`to_char(date_trunc('week', to_d), 'YYYY-MM-DD')`);
    expect(answer.chart, label).toEqual(
      weeks.length === 0
        ? null
        : {
            title: 'closedPerWeek',
            categories: weeks.map((w) => w.key),
            series: [{ key: 'requests', values: weeks.map((w) => w.requests) }],
          },
    );
  } else {
    const bucket = sql`case when business_days <= 5 then '0-5' when business_days <= 10 then '6-10'
      when business_days <= 20 then '11-20' when business_days <= 40 then '21-40' else '41+' end`;
    const ages = new Map((await reference(who, f, closed, bucket)).map((r) => [r.key, r.requests]));
    if (want.length > 0)
      expect(answer.chart?.series[0]?.values, label).toEqual(AGE_BUCKETS.map((b) => ages.get(b) ?? 0));
  }
  return answer;
}

describe('Closed Requests and Open Requests from the kept counts', () => {
  const june = { from: '2026-06-01', to: '2026-06-30' };
  const filters: Filter[] = [
    june,
    {},
    { from: '2026-06-15', to: '2026-06-15' },
    { from: '2026-06-16' },
    { to: '2026-06-10' },
    { ...june, scope: '/org/acme/' },
    { ...june, scope: '/org/acme/branch/sydney/' },
  ];

  it('gives Closed Requests the figures of the former query, as the administrator and a Globex manager', async () => {
    for (const f of filters) await compare('admin', '/reports/requests/closed', f);
    for (const f of filters.filter((x) => !x.scope)) await compare('globex', '/reports/requests/closed', f);
    const answer = await compare('admin', '/reports/requests/closed', june);
    // What the data is meant to cover: three scopes, pended days both ways.
    expect(answer.rows).toHaveLength(3);
    expect(Number(answer.totals?.daysPendedExternal)).toBeGreaterThan(0);
    expect(Number(answer.totals?.daysPendedInternal)).toBeGreaterThan(0);
  });

  it('gives Open Requests the figures of the former query, by status too', async () => {
    const open = [...filters, { ...june, status: 'open' }, { ...june, status: 'submitted' }];
    for (const f of open) await compare('admin', '/reports/requests/open', f);
    for (const f of open.filter((x) => !x.scope)) await compare('globex', '/reports/requests/open', f);
    const answer = await compare('admin', '/reports/requests/open', june);
    expect(answer.rows).toHaveLength(3);
    expect(Number(answer.totals?.daysPendedInternal)).toBeGreaterThan(0);
  });

  it('keeps counts equal to a fresh count of the requests', async () => {
    const { rows } = await sql<{ status: string }>`
      with fresh as (
        select status, scope, (submitted_at at time zone 'Australia/Sydney')::date as submitted_on,
          coalesce((closed_at at time zone 'Australia/Sydney')::date, 'infinity') as closed_on, count(*)::int as n
        from requests group by 1, 2, 3, 4
      ),
      kept as (select * from request_days where n <> 0)
      select * from fresh full join kept using (status, scope, submitted_on, closed_on)
      where fresh.n is distinct from kept.n`.execute(t.db);
    expect(rows).toEqual([]);
  });
});
