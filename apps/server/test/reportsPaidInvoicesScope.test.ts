import { createBusinessCalendar, dateInTimeZone } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPublicHolidays } from '../src/features/configuration/effective.js';
import { createTestContext, type TestContext } from './helpers.js';
import {
  at,
  getReport,
  insertInvoice,
  mondayOf,
  type ReportData,
  seedReportData,
} from './support/reports.js';
import { insertTestRequest } from './support/requests.js';

// Paid Invoices groups by the scope each invoice carries (migration 6003, kept by triggers) instead
// of joining a year of invoices with their requests. Here the report's answer is compared with the
// figures worked out from the raw rows through the requests, after part payments (some before the
// dates), payments either side of midnight in Sydney, a discarded invoice, several currencies and a
// request moved to another scope before and after it had invoices.

let t: TestContext;
let d: ReportData;
const TZ = 'Australia/Sydney';

/** An invoice of a request (the values its columns take), answering its id. */
const invoice = (requestNumber: string, values: Record<string, unknown>) =>
  insertInvoice(t, requestNumber, values);

async function payment(invoiceId: string, paidAt: Date, amount: number, currency = 'AUD') {
  await t.db
    .insertInto('invoice_payments')
    .values({
      invoice_id: invoiceId,
      paid_at: paidAt,
      payee_name: 'Payee',
      method: 'cheque',
      amount_exclusive_tax: amount,
      tax: 0,
      amount,
      currency,
    })
    .execute();
}

beforeAll(async () => {
  t = await createTestContext();
  d = await seedReportData(t);
  const sydney = '/org/acme/branch/sydney/';
  const s1 = await insertTestRequest(t.db, {
    scope: sydney,
    prefix: 'SYI',
    status: 'open',
    submittedAt: at('2026-05-20'),
  });
  // Part payments: one in May (before the dates), two in June, the last at 23:59 on 15 June.
  const part = await invoice(s1, { amount: 30000, tax: 2727, currency: 'AUD', created_at: at('2026-05-25') });
  await payment(part, at('2026-05-28'), 10000);
  await payment(part, at('2026-06-03'), 5000);
  await payment(part, new Date('2026-06-15T23:59:00+10:00'), 5000);
  // Paid at 00:01 on 16 June, in NZD, and one paid after the dates.
  const nzd = await invoice(s1, { amount: 8000, tax: 0, currency: 'NZD', created_at: at('2026-06-05') });
  await payment(nzd, new Date('2026-06-16T00:01:00+10:00'), 8000, 'NZD');
  const july = await invoice(s1, { amount: 500, tax: 0, currency: 'AUD', created_at: at('2026-06-29') });
  await payment(july, at('2026-07-02'), 500);
  // Discarded after a payment: never counted.
  const discarded = await invoice(s1, { amount: 700, currency: 'AUD', created_at: at('2026-06-02') });
  await payment(discarded, at('2026-06-04'), 700);
  await t.db
    .updateTable('request_invoices')
    .set({ discarded_at: at('2026-06-05') })
    .where('id', '=', discarded)
    .execute();
  // A request with an invoice moved to Globex, then invoiced again there.
  const moved = await insertTestRequest(t.db, {
    scope: sydney,
    prefix: 'SYM',
    status: 'open',
    submittedAt: at('2026-06-01'),
  });
  const before = await invoice(moved, {
    amount: 1200,
    tax: 100,
    currency: 'AUD',
    created_at: at('2026-06-02'),
  });
  await payment(before, at('2026-06-09'), 600);
  await t.db
    .updateTable('requests')
    .set({ scope: '/org/globex/' })
    .where('request_number', '=', moved)
    .execute();
  const after = await invoice(moved, { amount: 900, tax: 0, currency: 'AUD', created_at: at('2026-06-10') });
  await payment(after, at('2026-06-11'), 900);
});
afterAll(async () => {
  await t?.close();
});

interface Filter {
  from?: string;
  to?: string;
  scope?: string;
  currency?: string;
}

/** The report's figures from the raw rows: each invoice through its request, its payments summed here. */
async function expected(f: Filter, within: string) {
  const calendar = createBusinessCalendar(await getPublicHolidays(t.db, '/'));
  const invoices = await t.db
    .selectFrom('request_invoices as i')
    .innerJoin('requests as r', 'r.request_number', 'i.request_number')
    .select(['i.id', 'r.scope', 'i.currency', 'i.amount', 'i.tax', 'i.created_at', 'i.discarded_at'])
    .execute();
  const payments = await t.db
    .selectFrom('invoice_payments')
    .select(['invoice_id', 'paid_at', 'amount'])
    .execute();
  const rows = invoices.flatMap((i) => {
    const mine = payments.filter((p) => p.invoice_id === i.id);
    const inRange = mine
      .map((p) => dateInTimeZone(p.paid_at, TZ))
      .filter((day) => (!f.from || day >= f.from) && (!f.to || day <= f.to))
      .sort();
    const scope = i.scope;
    if (i.discarded_at || inRange.length === 0 || !scope.startsWith(within)) return [];
    if ((f.scope && !scope.startsWith(f.scope)) || (f.currency && i.currency !== f.currency)) return [];
    const paidOn = inRange[inRange.length - 1] as string;
    return [
      {
        scope,
        currency: i.currency ?? 'AUD',
        amount: Number(i.amount),
        tax: Number(i.tax ?? 0),
        paid: mine.reduce((sum, p) => sum + Number(p.amount), 0),
        paidOn,
        businessDays: calendar.businessDaysBetween(dateInTimeZone(i.created_at, TZ), paidOn),
      },
    ];
  });
  const keys = [...new Set(rows.map((r) => `${r.scope}\u0000${r.currency}`))].sort();
  const table = keys.map((key) => {
    const of = rows.filter((r) => `${r.scope}\u0000${r.currency}` === key);
    const sum = (pick: (r: (typeof rows)[number]) => number) => of.reduce((s, r) => s + pick(r), 0);
    return {
      scope: of[0]?.scope,
      currency: of[0]?.currency,
      invoices: of.length,
      amount: sum((r) => r.amount),
      tax: sum((r) => r.tax),
      paid: sum((r) => r.paid),
      balance: sum((r) => r.amount - r.paid),
      averageAmount: sum((r) => r.amount) / of.length,
      businessDays: sum((r) => r.businessDays) / of.length,
    };
  });
  const weeks = [...new Set(rows.map((r) => mondayOf(r.paidOn)))].sort();
  const chart =
    rows.length === 0
      ? null
      : {
          title: 'paidPerWeek',
          categories: weeks,
          series: [
            {
              key: 'invoices',
              values: weeks.map((w) => rows.filter((r) => mondayOf(r.paidOn) === w).length),
            },
          ],
        };
  return { table, chart };
}

async function compare(who: 'admin' | 'globex', f: Filter, within: string) {
  const { query, answer } = await getReport(t, d.cookies[who], '/reports/invoices/paid', f);
  const want = await expected(f, within);
  const label = `${who} ${query}`;
  expect(answer.rows.length, label).toBe(want.table.length);
  want.table.forEach((row, i) => {
    const { averageAmount, businessDays, ...exact } = row;
    expect(answer.rows[i], label).toMatchObject(exact);
    expect(Number(answer.rows[i]?.averageAmount), label).toBeCloseTo(averageAmount, 6);
    expect(Number(answer.rows[i]?.businessDays), label).toBeCloseTo(businessDays, 9);
  });
  expect(answer.chart, label).toEqual(want.chart);
  return answer;
}

describe('Paid Invoices by the scope each invoice carries', () => {
  it('gives the figures of the raw rows for every filter, as the administrator and a Globex manager', async () => {
    const june = { from: '2026-06-01', to: '2026-06-30' };
    const filters: Filter[] = [
      june,
      {},
      { from: '2026-06-15', to: '2026-06-15' },
      { from: '2026-06-16', to: '2026-06-16' },
      { ...june, scope: '/org/acme/' },
      { ...june, scope: '/org/globex/' },
      { ...june, currency: 'AUD' },
      { ...june, currency: 'NZD' },
    ];
    for (const f of filters) await compare('admin', f, '/');
    for (const f of filters.filter((x) => !x.scope)) await compare('globex', f, '/org/globex/');
    const answer = await compare('admin', june, '/');
    expect(answer.rows.map((r) => `${r.scope} ${r.currency}`)).toEqual([
      '/org/acme/ AUD',
      '/org/acme/branch/sydney/ AUD',
      '/org/acme/branch/sydney/ NZD',
      '/org/globex/ AUD',
      '/org/globex/ USD',
    ]);
  });

  it('keeps every invoice on its request scope', async () => {
    const differing = await t.db
      .selectFrom('request_invoices as i')
      .innerJoin('requests as r', 'r.request_number', 'i.request_number')
      .select(['i.id', 'i.scope', 'r.scope as requestScope'])
      .whereRef('i.scope', '<>', 'r.scope')
      .execute();
    expect(differing).toEqual([]);
  });
});
