import { createBusinessCalendar, dateInTimeZone, EMPTY_REPORT_MESSAGE } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPublicHolidays } from '../src/features/configuration/effective.js';
import { REPORTS } from '../src/features/reports/index.js';
import { assertMayRun } from '../src/features/reports/service.js';
import type { Actor } from '../src/http/actor.js';
import { createTestContext, type TestContext, XHR } from './helpers.js';
import { getAs, RANGE, type ReportData, seedReportData } from './support/reports.js';

// Each report through GET {path}/filter on hand-counted data (support/reports.ts): counts, weighted
// averages, ratios, currency totals and business days across the King's Birthday holiday; the
// filters and their errors; the empty result; who may run which report. The CSV export and the
// scope isolation of every figure are in reportsExport.test.ts.

let t: TestContext;
let d: ReportData;

beforeAll(async () => {
  t = await createTestContext();
  d = await seedReportData(t);
});
afterAll(async () => {
  await t?.close();
});

async function run(who: keyof ReportData['cookies'], path: string, query = RANGE) {
  const res = await getAs(t, d.cookies[who], `${path}/filter?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('Closed Requests', () => {
  it('averages the KPI figures per scope, with pended days off, and charts closures per week', async () => {
    const answer = await run('admin', '/reports/requests/closed');
    expect(answer.message).toBeNull();
    expect(answer.rows).toEqual([
      {
        scope: '/org/acme/',
        requests: 2,
        calendarDays: 5, // (6 + 4) / 2
        businessDays: 3.5, // (3 + 4) / 2, the holiday left out of a1's
        businessDaysLessPended: 2, // (3 − 1 + 4 − 2) / 2
        daysPendedInternal: 1, // (0 + 2) / 2
        daysPendedExternal: 0.5, // (1 + 0) / 2
      },
      {
        scope: '/org/globex/',
        requests: 1,
        calendarDays: 1,
        businessDays: 1,
        businessDaysLessPended: 1,
        daysPendedInternal: 0,
        daysPendedExternal: 0,
      },
    ]);
    // Weighted by the request counts: (2 × 3.5 + 1) / 3.
    expect(answer.totals).toMatchObject({ requests: 3, businessDays: 8 / 3, calendarDays: 11 / 3 });
    expect(answer.chart).toEqual({
      title: 'closedPerWeek',
      categories: ['2026-06-01', '2026-06-08'],
      series: [{ key: 'requests', values: [2, 1] }],
    });
  });

  it('takes the whole of the end date and nothing outside the range', async () => {
    const june10 = await run(
      'admin',
      '/reports/requests/closed',
      'filter.from=2026-06-10&filter.to=2026-06-10',
    );
    expect(june10.rows.map((r: { requests: number }) => r.requests)).toEqual([1]);
    const all = await run('admin', '/reports/requests/closed', '');
    expect(all.totals.requests).toBe(4); // July's a3 too
  });
});

describe('Completed Tasks', () => {
  it('counts on time and overdue per task type with the on-time ratio and business days', async () => {
    const answer = await run('admin', '/reports/tasks/completed');
    expect(answer.rows).toEqual([
      { taskType: 'actionDeferred', completed: 1, onTime: 1, overdue: 0, onTimeRatio: 1, businessDays: 2 },
      // Fri 5 → Wed 10 June is 2 business days over the holiday; (1 + 2) / 2.
      { taskType: 'followUp', completed: 2, onTime: 1, overdue: 1, onTimeRatio: 0.5, businessDays: 1.5 },
      { taskType: 'payInvoice', completed: 1, onTime: 1, overdue: 0, onTimeRatio: 1, businessDays: 3 },
      {
        taskType: 'senderActionRequired',
        completed: 1,
        onTime: 1,
        overdue: 0,
        onTimeRatio: 1,
        businessDays: 1,
      },
    ]);
    expect(answer.totals).toMatchObject({ completed: 5, onTime: 4, overdue: 1, onTimeRatio: 0.8 });
    expect(answer.totals.businessDays).toBeCloseTo(1.8); // (2 + 3 + 3 + 1) / 5
    expect(answer.chart).toEqual({
      title: 'completedPerWeek',
      categories: ['2026-06-01', '2026-06-08'],
      series: [
        { key: 'onTime', values: [3, 1] },
        { key: 'overdue', values: [0, 1] },
      ],
    });
  });

  it('filters by task type and scope', async () => {
    const followUps = await run('admin', '/reports/tasks/completed', `${RANGE}&filter.taskType=followUp`);
    expect(followUps.rows.map((r: { taskType: string }) => r.taskType)).toEqual(['followUp']);
    const globex = await run('admin', '/reports/tasks/completed', `${RANGE}&filter.scope=/org/globex/`);
    expect(globex.totals.completed).toBe(1);
  });
});

describe('Active Tasks', () => {
  it('counts open tasks per type by trigger date, overdue now, and their business days so far', async () => {
    const calendar = createBusinessCalendar(await getPublicHolidays(t.db, '/'));
    const today = dateInTimeZone(new Date());
    const since = (date: string) => calendar.businessDaysBetween(date, today);
    const answer = await run('admin', '/reports/tasks/active', `${RANGE}&filter.date=triggeredAt`);
    expect(answer.rows).toEqual([
      {
        taskType: 'followUp',
        active: 2,
        onTime: 1,
        overdue: 1,
        onTimeRatio: 0.5,
        businessDays: (since('2026-06-01') + since('2026-06-02')) / 2,
      },
      {
        taskType: 'issueRequest',
        active: 1,
        onTime: 1,
        overdue: 0,
        onTimeRatio: 1,
        businessDays: since('2026-06-02'),
      },
    ]);
    expect(answer.totals).toMatchObject({ active: 3, overdue: 1, onTimeRatio: 2 / 3 });
    expect(answer.chart).toEqual({
      title: 'activeByType',
      categories: ['followUp', 'issueRequest'],
      series: [
        { key: 'onTime', values: [1, 1] },
        { key: 'overdue', values: [1, 0] },
      ],
    });
  });

  it('reads the range on the due date with filter.date=dueAt', async () => {
    const answer = await run('admin', '/reports/tasks/active', `${RANGE}&filter.date=dueAt`);
    expect(answer.rows).toMatchObject([{ taskType: 'followUp', active: 1, overdue: 1 }]);
  });
});

describe('Open Requests', () => {
  it('counts requests not closed per scope with their age, charted by age in business days', async () => {
    const calendar = createBusinessCalendar(await getPublicHolidays(t.db, '/'));
    const today = dateInTimeZone(new Date());
    const answer = await run('admin', '/reports/requests/open');
    expect(answer.rows.map((r: { scope: string; requests: number }) => [r.scope, r.requests])).toEqual([
      ['/org/acme/', 2],
      ['/org/globex/', 1],
    ]);
    expect(answer.rows[1].businessDays).toBe(calendar.businessDaysBetween('2026-06-02', today));
    // Every one is older than 41 business days by now.
    expect(answer.chart).toEqual({
      title: 'openByAge',
      categories: ['0-5', '6-10', '11-20', '21-40', '41+'],
      series: [{ key: 'requests', values: [0, 0, 0, 0, 3] }],
    });
    const submitted = await run('admin', '/reports/requests/open', `${RANGE}&filter.status=submitted`);
    expect(submitted.rows).toMatchObject([
      { scope: '/org/acme/', requests: 1, businessDays: calendar.businessDaysBetween('2026-06-03', today) },
    ]);
  });
});

describe('Paid Invoices', () => {
  it('totals amounts per scope and currency, and leaves a mixed-currency total empty', async () => {
    const answer = await run('admin', '/reports/invoices/paid');
    expect(answer.rows).toEqual([
      {
        scope: '/org/acme/',
        currency: 'AUD',
        invoices: 2,
        amount: 17345,
        tax: 1577,
        paid: 17345,
        balance: 0,
        averageAmount: 8672.5,
        businessDays: 3.5, // Mon 1 → Wed 10 June is 6 (not 7: the holiday), and 1
      },
      {
        scope: '/org/globex/',
        currency: 'USD',
        invoices: 1,
        amount: 20000,
        tax: 0,
        paid: 20000,
        balance: 0,
        averageAmount: 20000,
        businessDays: 1,
      },
    ]);
    expect(answer.totals).toMatchObject({ invoices: 3, currency: null, amount: null, averageAmount: null });
    expect(answer.chart).toEqual({
      title: 'paidPerWeek',
      categories: ['2026-06-01', '2026-06-08'],
      series: [{ key: 'invoices', values: [2, 1] }],
    });
    const aud = await run('admin', '/reports/invoices/paid', `${RANGE}&filter.currency=AUD`);
    expect(aud.totals).toMatchObject({ invoices: 2, currency: 'AUD', amount: 17345, tax: 1577 });
  });
});

describe('Request Results', () => {
  it('counts results per state with the QA ratio and business days from submission', async () => {
    const answer = await run('admin', '/reports/request-results');
    expect(answer.rows).toEqual([
      {
        scope: '/org/acme/',
        results: 3,
        qualityAssured: 1,
        awaitingQa: 1,
        downloaded: 1,
        discarded: 0,
        qualityAssuredAll: 2,
        qaRatio: 2 / 3,
        businessDays: 3, // (2 + 3 + 4) / 3
      },
      {
        scope: '/org/globex/',
        results: 1,
        qualityAssured: 0,
        awaitingQa: 0,
        downloaded: 0,
        discarded: 1,
        qualityAssuredAll: 0,
        qaRatio: 0,
        businessDays: 1,
      },
    ]);
    const downloaded = await run('admin', '/reports/request-results', `${RANGE}&filter.status=downloaded`);
    expect(downloaded.rows).toMatchObject([{ scope: '/org/acme/', results: 1, downloaded: 1 }]);
  });
});

describe('Users', () => {
  it('shows each user with open and completed tasks, on time, overdue and business days', async () => {
    const answer = await run('admin', '/reports/users');
    const hacme = answer.rows.find((r: { userId: string }) => r.userId === 'hacme');
    expect(hacme).toMatchObject({ active: 1, completed: 4, onTime: 3, overdue: 1, onTimeRatio: 0.75 });
    expect(hacme.businessDays).toBeCloseTo(1.5); // 1, 2, 1, 2
  });

  it('counts the users with and without a second factor (issue 35)', async () => {
    const before = await run('admin', '/reports/users');
    await t.db
      .insertInto('second_factors')
      .values({
        id: 'sf-hacme',
        user_id: 'hacme',
        kind: 'totp',
        name: 'Phone',
        secret: 'x',
        confirmed_at: new Date(),
      })
      .execute();
    try {
      const answer = await run('admin', '/reports/users');
      const hacme = answer.rows.find((r: { userId: string }) => r.userId === 'hacme');
      expect(hacme).toMatchObject({ withSecondFactor: 1, withoutSecondFactor: 0 });
      expect(answer.totals.withSecondFactor).toBe(before.totals.withSecondFactor + 1);
      expect(answer.totals.withoutSecondFactor).toBe(before.totals.withoutSecondFactor - 1);
      expect(answer.totals.withSecondFactor + answer.totals.withoutSecondFactor).toBe(answer.rows.length);
    } finally {
      await t.db.deleteFrom('second_factors').where('id', '=', 'sf-hacme').execute();
    }
  });
});

describe('filters', () => {
  const bad = async (path: string, query: string) => {
    const res = await getAs(t, d.cookies.admin, `${path}/filter?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    return res.json().fields as Record<string, string>;
  };

  it('refuses a bad date, an end before the start, an unknown task type, currency or status', async () => {
    expect(await bad('/reports/tasks/completed', 'filter.from=2026-13-01')).toEqual({
      'filter.from': 'Enter a valid date.',
    });
    expect((await bad('/reports/tasks/completed', 'filter.to=1/6/2026'))['filter.to']).toBe(
      'Enter a date as YYYY-MM-DD.',
    );
    expect(await bad('/reports/tasks/completed', 'filter.from=2026-06-30&filter.to=2026-06-01')).toEqual({
      'filter.to': 'The end date is before the start date.',
    });
    expect(await bad('/reports/tasks/completed', 'filter.taskType=coffee')).toEqual({
      'filter.taskType': 'Unknown task type.',
    });
    expect(await bad('/reports/invoices/paid', 'filter.currency=XYZ')).toEqual({
      'filter.currency': 'Choose a currency from the list.',
    });
    // A status of another report.
    expect(await bad('/reports/requests/open', 'filter.status=discarded')).toEqual({
      'filter.status': 'Choose a status from the list.',
    });
  });

  it('answers the spec message and no totals or chart for an empty result', async () => {
    for (const path of ['/reports/requests/closed', '/reports/tasks/completed', '/reports/invoices/paid']) {
      const answer = await run('admin', path, 'filter.from=2020-01-01&filter.to=2020-01-31');
      expect(answer).toMatchObject({ rows: [], totals: null, chart: null, message: EMPTY_REPORT_MESSAGE });
    }
    expect(EMPTY_REPORT_MESSAGE).toBe('The report generated an empty result set.');
  });
});

describe('the report pages', () => {
  it('describe the form: filters, columns, the scopes the user may choose and the statuses', async () => {
    const res = await getAs(t, d.cookies.globex, '/reports/requests/open?filter.from=nonsense');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      $type: 'report',
      title: 'Open Requests',
      report: 'openRequests',
      path: '/reports/requests/open',
      filters: ['from', 'to', 'scope', 'status'],
      statuses: ['submitted', 'open'],
      scopes: [{ path: '/org/globex/', name: expect.any(String) }],
    });
  });

  it('refuse a user without reports:view on the page, the figures and the export (403)', async () => {
    for (const report of REPORTS) {
      for (const url of [report.path, `${report.path}/filter?${RANGE}`, `${report.path}?export=csv`]) {
        const res = await getAs(t, d.cookies.handler, url);
        expect(res.statusCode, url).toBe(403);
        expect(res.body).not.toContain('/org/');
      }
    }
    const anonymous = await t.app.inject({ url: '/reports/users/filter', headers: XHR });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuse the users report without user:view, and a report whose feature is off', () => {
    const actor = (permissions: Actor['permissions']): Actor => ({
      id: 'x',
      name: 'X',
      email: 'x@test.example',
      locale: 'en-au',
      countryCode: '+61',
      scope: '/',
      roles: [],
      permissions,
      sessionId: 's',
    });
    const users = REPORTS.find((r) => r.name === 'users')!;
    const results = REPORTS.find((r) => r.name === 'requestResults')!;
    const on = { resultFileDownloadTracking: true };
    // No role grants reports:view without user:view, so this is asserted on the rule itself.
    expect(() => assertMayRun(actor(['reports:view']), users, on)).toThrow(/not allowed/);
    expect(() => assertMayRun(actor(['reports:view', 'user:view']), users, on)).not.toThrow();
    expect(() => assertMayRun(actor(['reports:view']), results, on)).toThrow(/not allowed/);
    expect(() => assertMayRun(actor(['reports:view', 'request:view:content']), results, {})).toThrow();
    expect(() => assertMayRun(actor(['reports:view', 'request:view:content']), results, on)).not.toThrow();
  });
});
