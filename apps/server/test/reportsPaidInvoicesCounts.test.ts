import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../src/db/migrations/20261130_2001_invoice_paid_days.js';
import type { ReportContext } from '../src/features/reports/definition.js';
import { withinReportScopes } from '../src/features/reports/queries/access.js';
import { calendarCte, holidaySetOf, localDate } from '../src/features/reports/queries/calendar.js';
import { inDateRange, inScope, type ReportFilters } from '../src/features/reports/queries/filters.js';
import { reportContext } from '../src/features/reports/service.js';
import { createTestContext, type TestContext } from './helpers.js';
import { REPORT_ACTORS } from './support/reportActors.js';
import { getReport, insertInvoice, type ReportData, seedReportData } from './support/reports.js';

// The Paid Invoices summary reads invoice_paid_days (migration 20261130_2001): per invoice and day
// it was paid, the next day it was paid. Here its answer is compared with the query it used before
// (kept below as the reference: every payment of the dates and every invoice of them), as the
// administrator and a Globex manager, under each filter, after every kind of change: part payments
// on several days (some on the same day, some either side of a Sydney midnight, some before or
// after the dates), payments added in bulk, moved to another day or invoice and deleted, invoices
// discarded and restored, their amounts, currency and day added changed, and a request moved to
// another scope. And the kept rows with a fresh count.

const TZ = 'Australia/Sydney';
const ACME = '/org/acme/';
const GLOBEX = '/org/globex/';

let t: TestContext;
let d: ReportData;

/** 10:00 in Sydney on a June day, or `minutes` after midnight. */
const june = (day: number, minutes = 600) =>
  sql<Date>`(${`2026-06-${String(day).padStart(2, '0')}`}::date)::timestamp at time zone ${TZ} + ${`${minutes} minutes`}::interval`;

beforeAll(async () => {
  t = await createTestContext();
  d = await seedReportData(t);
});
afterAll(async () => {
  await t?.close();
});

const contexts: Partial<Record<'admin' | 'globex', ReportContext>> = {};

/** The former summary: the invoices with a payment in the dates, from every such payment. */
async function reference(who: 'admin' | 'globex', f: ReportFilters) {
  const ctx = contexts[who] ?? { ...(await reportContext(t.db, REPORT_ACTORS[who])), db: t.db };
  contexts[who] = ctx;
  const h = ctx.holidays;
  const { rows } = await sql<Record<string, unknown>>`
    with cal as materialized (${calendarCte(h)}),
    q as (
      select i.id, i.scope, i.currency, i.amount, i.tax, i.created_at, pt.paid_at, pt.paid
      from (
        select p.invoice_id, max(p.paid_at) filter (where ${inDateRange(sql.ref('p.paid_at'), f)}) as paid_at,
          sum(p.amount) as paid
        from invoice_payments p
        where p.invoice_id in (select q.invoice_id from invoice_payments q where ${inDateRange(sql.ref('q.paid_at'), f)})
        group by p.invoice_id
      ) pt join request_invoices i on i.id = pt.invoice_id
      where i.discarded_at is null and ${withinReportScopes(ctx.actor, sql.ref('i.scope'))}
        and ${inScope(sql.ref('i.scope'), f.scope)} and ${f.currency ? sql`i.currency = ${f.currency}` : sql`true`}
    ),
    x as (
      select q.scope, coalesce(q.currency, 'AUD') as currency, ${holidaySetOf(h, sql.ref('q.scope'))} as set_id,
        ${localDate(sql.ref('q.created_at'), h)} as from_d, ${localDate(sql.ref('q.paid_at'), h)} as to_d,
        q.amount, q.tax, q.paid
      from q
    )
    select grouping(x.scope) as by_week, x.scope, x.currency,
      to_char(date_trunc('week', x.to_d), 'YYYY-MM-DD') as week, count(*)::int as invoices,
      coalesce(sum(x.amount), 0)::float8 as amount, coalesce(sum(x.tax), 0)::float8 as tax,
      coalesce(sum(x.paid), 0)::float8 as paid, coalesce(sum(x.amount - x.paid), 0)::float8 as balance,
      (sum(x.amount) / nullif(count(x.amount), 0))::float8 as "averageAmount",
      avg(greatest(0, c2.n - c1.n))::float8 as "businessDays"
    from x
      join cal c1 on c1.set_id = x.set_id and c1.d = x.from_d
      join cal c2 on c2.set_id = x.set_id and c2.d = x.to_d
    group by grouping sets ((x.scope, x.currency), (date_trunc('week', x.to_d)))
    order by 1, 2, 3, 4`.execute(t.db);
  return {
    rows: rows.filter((r) => r.by_week === 0).map(({ by_week: _, week: __, ...r }) => r),
    weeks: rows.filter((r) => r.by_week === 1).map((r) => ({ week: r.week, invoices: r.invoices })),
  };
}

function filters(): ReportFilters[] {
  return [
    {},
    { from: '2026-06-01', to: '2026-06-30' },
    { from: '2026-06-05' },
    { to: '2026-06-09' },
    { from: '2026-06-10', to: '2026-06-10' },
    // Ending on a later payment's day: the invoice counts once, by that day.
    { from: '2026-06-01', to: '2026-06-10' },
    { from: '2026-06-04', to: '2026-06-05' },
    { to: '2026-06-22' },
    { from: '2026-06-11', to: '2026-06-20' },
    { from: '2026-06-21', to: '2026-07-31' },
    { from: '2026-06-01', to: '2026-06-30', scope: ACME },
    { from: '2026-06-01', to: '2026-06-30', scope: GLOBEX },
    { from: '2026-06-01', to: '2026-06-30', currency: 'AUD' },
    { currency: 'USD', to: '2026-06-15' },
  ];
}

let compared = 0;
async function compare(who: 'admin' | 'globex', f: ReportFilters) {
  const { query, answer } = await getReport(t, d.cookies[who], '/reports/invoices/paid', f);
  const want = await reference(who, f);
  const label = `${who} ${query}`;
  const close = (rows: Record<string, unknown>[]) =>
    rows.map((r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v]),
      ),
    );
  expect(close(answer.rows), label).toEqual(close(want.rows));
  const chart = answer.chart as { categories: string[]; series: { key: string; values: number[] }[] } | null;
  const weeks = chart
    ? chart.categories.map((week, i) => ({ week, invoices: chart.series[0]?.values[i] }))
    : [];
  expect(
    weeks.filter((w) => w.invoices),
    label,
  ).toEqual(want.weeks);
  compared++;
}

async function compareAll() {
  for (const f of filters()) await compare('admin', f);
  for (const f of filters().filter((x) => !x.scope)) await compare('globex', f);
  // The kept rows equal a fresh count, and none is left at zero.
  const fresh = sql`
    with s as (
      select x.invoice_id, x.d, lead(x.d) over (partition by x.invoice_id order by x.d) as next_d
      from (select distinct invoice_id, (paid_at at time zone ${TZ})::date as d from invoice_payments) x
    ), t as (select invoice_id, sum(amount) as paid from invoice_payments group by invoice_id)
    select i.scope, i.currency, (i.created_at at time zone ${TZ})::date as created_on, s.d as paid_on,
      s.next_d as next_paid_on, count(*)::int as n, coalesce(sum(i.amount), 0)::bigint as amount,
      count(i.amount)::int as amounts, coalesce(sum(i.tax), 0)::bigint as tax, sum(t.paid)::bigint as paid,
      coalesce(sum(i.amount - t.paid), 0)::bigint as balance
    from request_invoices i join s on s.invoice_id = i.id join t on t.invoice_id = i.id
    where i.discarded_at is null group by 1, 2, 3, 4, 5`;
  const { rows } = await sql<Record<string, unknown>>`
    with fresh as (${fresh}), kept as (select * from invoice_paid_days)
    select * from fresh full join kept
      on kept.scope = fresh.scope and kept.currency is not distinct from fresh.currency
        and kept.created_on = fresh.created_on and kept.paid_on = fresh.paid_on
        and kept.next_paid_on is not distinct from fresh.next_paid_on
    where (fresh.n, fresh.amount, fresh.amounts, fresh.tax, fresh.paid, fresh.balance)
      is distinct from (kept.n, kept.amount, kept.amounts, kept.tax, kept.paid, kept.balance)`.execute(t.db);
  expect(rows).toEqual([]);
}

/** An invoice of a request (the values its columns take), answering its id. */
const invoice = (requestNumber: string, values: Record<string, unknown>) =>
  insertInvoice(t, requestNumber, values);

/** Payments of [invoice, June day, minutes after midnight, amount], in one statement. */
async function pay(...payments: [string, number, number, number][]) {
  await t.db
    .insertInto('invoice_payments')
    .values(
      payments.map(([invoiceId, day, minutes, amount]) => ({
        invoice_id: invoiceId,
        paid_at: june(day, minutes),
        payee_name: 'Payee',
        method: 'cheque',
        amount_exclusive_tax: amount,
        tax: 0,
        amount,
        currency: 'AUD',
      })),
    )
    .execute();
}

describe('Paid Invoices from the kept rows', () => {
  let a: string;
  let b: string;
  let g: string;

  it('gives the figures of the former query for part payments on several days', async () => {
    await compareAll();
    a = await invoice(d.n.a1, { amount: 10_000, tax: 900, currency: 'AUD', created_at: june(2) });
    b = await invoice(d.n.a2, { amount: null, currency: null, created_at: june(8, 1) });
    g = await invoice(d.n.g1, { amount: 30_000, tax: 0, currency: 'USD', created_at: june(1) });
    // a: two payments on the 9th, one just after midnight on the 10th, one on the 21st.
    await pay([a, 9, 600, 1000], [a, 9, 700, 2000], [a, 10, 1, 3000]);
    await pay([a, 21, 600, 500]);
    // b: paid without an amount billed; g: one payment just before midnight, one a day later.
    await pay([b, 12, 600, 700], [g, 4, 1439, 10_000], [g, 5, 1439, 5000]);
    await compareAll();
  });

  it('follows payments moved to another day or invoice, and deleted', async () => {
    await t.db
      .updateTable('invoice_payments')
      .set({ paid_at: june(22) })
      .where('invoice_id', '=', a)
      .where('amount', '=', '3000')
      .execute();
    await t.db
      .updateTable('invoice_payments')
      .set({ invoice_id: b })
      .where('invoice_id', '=', g)
      .where('amount', '=', '5000')
      .execute();
    await compareAll();
    await t.db
      .deleteFrom('invoice_payments')
      .where('invoice_id', '=', a)
      .where('amount', '<', '2500')
      .execute();
    await compareAll();
  });

  it('follows invoices discarded and restored, re-priced, re-dated and moved', async () => {
    await t.db
      .updateTable('request_invoices')
      .set({ discarded_at: june(25) })
      .where('id', '=', g)
      .execute();
    await compareAll();
    await t.db
      .updateTable('request_invoices')
      .set({ discarded_at: null, amount: 12_000, currency: 'AUD' })
      .where('id', '=', g)
      .execute();
    await t.db
      .updateTable('request_invoices')
      .set({ created_at: june(3, 5) })
      .where('id', 'in', [a, b])
      .execute();
    await compareAll();
    // The request moves to Globex: its invoices follow (migration 6003), and so do their rows.
    await t.db.updateTable('requests').set({ scope: GLOBEX }).where('request_number', '=', d.n.a2).execute();
    await compareAll();
  });

  it('counts the payments already there when migrated', async () => {
    const db = t.db as unknown as Kysely<unknown>;
    await migration.down(db);
    await migration.up(db);
    await compareAll();
    expect(compared).toBeGreaterThan(100);
  });
});
