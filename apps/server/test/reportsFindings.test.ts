import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';
import { at, getAs, RANGE, type ReportData, seedReportData } from './support/reports.js';

// Issue 23 item 6 and issue 22 item 10, on the hand-counted data of support/reports.ts with a few
// rows more: the Active Tasks default type, the Users report's scope filter (the work, not the
// people), totals per currency, the three charts that were missing, the export link opened in a tab
// without the permission, and the period a report opens on.

let t: TestContext;
let d: ReportData;

beforeAll(async () => {
  t = await createTestContext();
  d = await seedReportData(t);
  // Waiting on the sender, not on staff: left out of Active Tasks unless chosen.
  await t.db
    .insertInto('tasks')
    .values({
      type: 'senderActionRequired',
      subject: 'Waiting on the sender',
      scope: '/org/acme/',
      request_number: d.n.o1,
      triggered_at: at('2026-06-03'),
      due_at: at('2026-06-05'),
    })
    .execute();
  // A handler of the whole service (own scope '/') who worked one task of each organisation.
  for (const scope of ['/org/acme/', '/org/globex/'])
    await t.db
      .insertInto('tasks')
      .values({
        type: 'followUp',
        subject: 'Follow up',
        scope,
        triggered_at: at('2026-06-15'),
        due_at: at('2026-06-17'),
        completed_at: at('2026-06-16'),
        completed_by: 'rhandler',
      })
      .execute();
});
afterAll(async () => {
  await t?.close();
});

async function run(path: string, query = RANGE) {
  const res = await getAs(t, d.cookies.admin, `${path}/filter?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('Active Tasks', () => {
  it('leaves Sender Action Required out when no task type is chosen, and shows it when chosen', async () => {
    const all = await run('/reports/tasks/active');
    expect(all.rows.map((r: { taskType: string }) => r.taskType)).toEqual(['followUp', 'issueRequest']);
    expect(all.totals.active).toBe(3);
    expect(all.chart.categories).not.toContain('senderActionRequired');
    const chosen = await run('/reports/tasks/active', `${RANGE}&filter.taskType=senderActionRequired`);
    expect(chosen.rows).toMatchObject([{ taskType: 'senderActionRequired', active: 1 }]);
  });
});

describe('Users', () => {
  it("filters the work done in the scope, not the users' own scope", async () => {
    const acme = await run('/reports/users', `${RANGE}&filter.scope=/org/acme/`);
    const ids = acme.rows.map((r: { userId: string }) => r.userId);
    // The service-wide handler did acme work: listed, with that work only (not Globex's task).
    expect(acme.rows.find((r: { userId: string }) => r.userId === 'rhandler')).toMatchObject({
      completed: 1,
      onTime: 1,
      active: 0,
    });
    expect(ids).toContain('hacme');
    // Globex's handler did nothing in Acme and is not Acme's.
    expect(ids).not.toContain('hglobex');
    const everything = await run('/reports/users');
    expect(everything.rows.find((r: { userId: string }) => r.userId === 'rhandler').completed).toBe(2);
  });

  it('charts the tasks each user completed, on time against overdue', async () => {
    const answer = await run('/reports/users');
    expect(answer.chart.title).toBe('completedByUser');
    const at = answer.chart.categories.indexOf('User hacme');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(answer.chart.series).toEqual([
      { key: 'onTime', values: expect.any(Array) },
      { key: 'overdue', values: expect.any(Array) },
    ]);
    expect([answer.chart.series[0].values[at], answer.chart.series[1].values[at]]).toEqual([3, 1]);
  });
});

describe('Paid Invoices', () => {
  it('totals each currency on its own when the rows hold several, and charts payments per week', async () => {
    const answer = await run('/reports/invoices/paid');
    expect(answer.totals).toMatchObject({ invoices: 3, amount: null });
    expect(answer.currencyTotals).toEqual([
      expect.objectContaining({ currency: 'AUD', invoices: 2, amount: 17345, tax: 1577, paid: 17345 }),
      expect.objectContaining({ currency: 'USD', invoices: 1, amount: 20000, paid: 20000, balance: 0 }),
    ]);
    expect(answer.chart).toMatchObject({ title: 'paidPerWeek', series: [{ key: 'invoices' }] });
    const weekly = answer.chart.series[0].values.reduce((s: number, v: number) => s + v, 0);
    expect(weekly).toBe(3);
    // One currency: the totals row says it all.
    const aud = await run('/reports/invoices/paid', `${RANGE}&filter.currency=AUD`);
    expect(aud.currencyTotals).toEqual([]);
  });
});

describe('Request Results', () => {
  it('charts the results added per week, by state', async () => {
    const answer = await run('/reports/request-results');
    expect(answer.chart.title).toBe('resultsPerWeek');
    expect(answer.chart.series.map((s: { key: string }) => s.key)).toEqual([
      'qualityAssured',
      'awaitingQa',
      'downloaded',
      'discarded',
    ]);
    const total = answer.chart.series
      .flatMap((s: { values: number[] }) => s.values)
      .reduce((a: number, b: number) => a + b, 0);
    expect(total).toBe(answer.totals.results);
  });
});

describe('the export link', () => {
  it('shows the Access Denied page to a browser tab without the permission, not raw JSON', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/reports/requests/closed?${RANGE}&export=csv`,
      headers: { cookie: d.cookies.handler },
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('"$type":"accessDenied"');
    expect(res.body).not.toContain('/org/');
  });

  it('sends a browser without a session to sign in first', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/reports/requests/closed?export=csv` });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/signin\?return-url=/);
  });
});

describe('the report page', () => {
  it('opens on the last 12 months, up to today', async () => {
    const res = await getAs(t, d.cookies.admin, '/reports/requests/closed');
    const { from, to } = res.json().defaultPeriod;
    expect(to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const yearBefore = new Date(`${to}T00:00:00Z`);
    yearBefore.setUTCFullYear(yearBefore.getUTCFullYear() - 1);
    yearBefore.setUTCDate(yearBefore.getUTCDate() + 1);
    expect(from).toBe(yearBefore.toISOString().slice(0, 10));
  });
});
