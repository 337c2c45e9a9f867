import { PAYMENT_METHOD_NAMES } from '@dossier/core';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { visibleRequests } from '../../requests/index.js';
import { type ReportContext, type ReportDefinition, weeklyChart } from '../definition.js';
import { withinReportScopes } from './access.js';
import { calendarCte, holidaySetOf, localDate } from './calendar.js';
import { inDateRange, inDayRange, inScope, type ReportFilters } from './filters.js';

// Paid Invoices: the invoices paid, in full or in part, within the dates (a payment of theirs falls
// in them; discarded ones left out), per sender organisation and currency: how many, the amounts
// billed, what was paid and what is left (balance) to date (minor units; shown formatted, exported
// as decimals), the average amount billed and the business days from the invoice's arrival to its
// latest payment within the dates. Billed = paid + balance on every row (for invoices received
// with an amount). The export lists the payments within the dates, one line each, with the
// invoice's balance after that payment. Charted as invoices paid per week.

/** The invoices with a payment within the dates; `paid_at`: the latest such payment. */
function base(ctx: ReportContext, f: ReportFilters): RawBuilder<unknown> {
  let q = ctx.db
    .selectFrom('request_invoices as i')
    .innerJoin('requests', 'requests.request_number', 'i.request_number')
    .innerJoin(
      (eb) =>
        eb
          .selectFrom('invoice_payments as p')
          .select(['p.invoice_id', (e) => e.fn.max('p.paid_at').as('last_paid_at')])
          .where(inDateRange(sql.ref('p.paid_at'), f))
          .groupBy('p.invoice_id')
          .as('inr'),
      (join) => join.onRef('inr.invoice_id', '=', 'i.id'),
    )
    .select([
      'i.id',
      'i.request_number',
      'requests.scope',
      'i.currency',
      'i.amount',
      'i.amount_exclusive_tax',
      'i.tax',
      'i.created_at',
      'inr.last_paid_at as paid_at',
      (eb) =>
        eb
          .selectFrom('invoice_payments as p')
          .select((e) => e.fn.sum<string>('p.amount').as('s'))
          .whereRef('p.invoice_id', '=', 'i.id')
          .as('paid'),
    ])
    .where('i.discarded_at', 'is', null)
    .where(visibleRequests(ctx.actor))
    .where(withinReportScopes(ctx.actor, sql.ref('requests.scope')))
    .where(inScope(sql.ref('requests.scope'), f.scope) as RawBuilder<SqlBool>);
  if (f.currency) q = q.where('i.currency', '=', f.currency);
  return sql`${q}`;
}

/**
 * The invoices with a payment within the dates for the summary, summed per scope, currency, day
 * added and latest day paid within the dates: from the rows invoice_paid_days keeps (migration
 * 20261130_2001) per day an invoice was paid and the next day it was, each invoice counted by its
 * row with from <= paid_on <= to < next_paid_on. Within the actor's report scopes (a role with
 * reports:view grants request:view there too, so visibleRequests adds nothing) and the chosen
 * scope and currency, by the scope each invoice carries (migration 6003).
 */
function summaryRows(ctx: ReportContext, f: ReportFilters): RawBuilder<unknown> {
  const lastWithin = f.to
    ? sql`(k.next_paid_on is null or k.next_paid_on > ${f.to}::date)`
    : sql`k.next_paid_on is null`;
  return sql`
    select k.* from invoice_paid_days k
    where ${inDayRange(sql.ref('k.paid_on'), f)} and ${lastWithin}
      and ${withinReportScopes(ctx.actor, sql.ref('k.scope'))}
      and ${inScope(sql.ref('k.scope'), f.scope)}
      and ${f.currency ? sql`k.currency = ${f.currency}` : sql`true`}`;
}

/**
 * The payments within the dates of the invoices of `inv` (a CTE of base), newest first, at most
 * `limit`; `balance`: what was left of the invoice after that payment (payments before the dates
 * count).
 */
function payments(f: ReportFilters, limit: number): RawBuilder<unknown> {
  return sql`
    select inv.id, inv.request_number, inv.scope, inv.currency, inv.amount, inv.amount_exclusive_tax,
      inv.tax, inv.created_at, pp.id as payment_id, pp.paid_at, pp.amount as payment_amount,
      pp.amount_exclusive_tax as payment_exclusive_tax, pp.tax as payment_tax, pp.payee_name,
      pp.payee_reference_number, pp.method, inv.amount - pp.paid_so_far as balance
    from inv
      join (
        select p.id, p.invoice_id, p.paid_at, p.amount, p.amount_exclusive_tax, p.tax, p.payee_name,
          p.payee_reference_number, p.method,
          sum(p.amount) over (partition by p.invoice_id order by p.paid_at, p.id) as paid_so_far
        from invoice_payments p
        where p.invoice_id in (select id from inv)
      ) pp on pp.invoice_id = inv.id
    where ${inDateRange(sql.ref('pp.paid_at'), f)}
    order by pp.paid_at desc, pp.id desc
    limit ${limit}`;
}

function withDays(ctx: ReportContext, query: RawBuilder<unknown>) {
  const h = ctx.holidays;
  return sql`
    cal as materialized (${calendarCte(h)}),
    -- Materialised: each invoice's paid sum (a subquery of base) is worked out once, not once per use.
    x as materialized (
      select q.*, ${holidaySetOf(h, sql.ref('q.scope'))} as set_id,
        ${localDate(sql.ref('q.created_at'), h)} as from_d, ${localDate(sql.ref('q.paid_at'), h)} as to_d
      from (${query}) q
    ),
    y as (
      select x.*, greatest(0, c2.n - c1.n) as business_days
      from x
        join cal c1 on c1.set_id = x.set_id and c1.d = x.from_d
        join cal c2 on c2.set_id = x.set_id and c2.d = x.to_d
    )`;
}

export const paidInvoicesReport: ReportDefinition = {
  name: 'paidInvoices',
  path: '/reports/invoices/paid',
  title: 'Paid Invoices',
  needs: [],
  filters: ['from', 'to', 'scope', 'currency'],
  columns: [
    { key: 'scope', kind: 'id' },
    { key: 'currency', kind: 'id' },
    { key: 'invoices', kind: 'count' },
    { key: 'amount', kind: 'currency', currencyKey: 'currency' },
    { key: 'tax', kind: 'currency', currencyKey: 'currency' },
    { key: 'paid', kind: 'currency', currencyKey: 'currency' },
    { key: 'balance', kind: 'currency', currencyKey: 'currency' },
    {
      key: 'averageAmount',
      kind: 'average',
      weightedBy: 'invoices',
      unit: 'currency',
      currencyKey: 'currency',
    },
    { key: 'businessDays', kind: 'average', weightedBy: 'invoices', unit: 'businessDays' },
  ],
  async summary(ctx, f) {
    // One pass over the invoices: the table per scope and currency, and the chart of invoices paid
    // per week (counts: amounts in several currencies do not stack), by grouping sets.
    // The kept rows are summed per scope, currency and day pair first, so the calendar is looked up
    // once per combination.
    const h = ctx.holidays;
    const { rows } = await sql<Record<string, unknown>>`
      with cal as materialized (${calendarCte(h)}),
      x as (
        select q.scope, coalesce(q.currency, 'AUD') as currency, ${holidaySetOf(h, sql.ref('q.scope'))} as set_id,
          q.created_on as from_d, q.paid_on as to_d, sum(q.n) as n, sum(q.amount) as amount,
          sum(q.amounts) as amounts, sum(q.tax) as tax, sum(q.paid) as paid, sum(q.balance) as balance
        from (${summaryRows(ctx, f)}) q
        group by 1, 2, 3, 4, 5
      )
      select grouping(x.scope) as by_week, x.scope, x.currency,
        to_char(date_trunc('week', x.to_d), 'YYYY-MM-DD') as week, sum(x.n)::int as invoices,
        coalesce(sum(x.amount), 0)::float8 as amount, coalesce(sum(x.tax), 0)::float8 as tax,
        coalesce(sum(x.paid), 0)::float8 as paid, coalesce(sum(x.balance), 0)::float8 as balance,
        (sum(x.amount) / nullif(sum(x.amounts), 0))::float8 as "averageAmount",
        (sum(x.n * greatest(0, c2.n - c1.n)) / sum(x.n))::float8 as "businessDays"
      from x
        join cal c1 on c1.set_id = x.set_id and c1.d = x.from_d
        join cal c2 on c2.set_id = x.set_id and c2.d = x.to_d
      group by grouping sets ((x.scope, x.currency), (date_trunc('week', x.to_d)))
      order by 1, 2, 3, 4`.execute(ctx.db);
    const table = rows
      .filter((r) => r.by_week === 0)
      .map(({ by_week: _, week: __, ...r }) => r as Record<string, number | string>);
    const weeks = rows.filter((r) => r.by_week === 1).map(({ week, invoices }) => ({ week, invoices }));
    return { rows: table, chart: weeklyChart('paidPerWeek', weeks, ['invoices']) };
  },
  exportColumns: [
    { key: 'invoiceId', header: 'Invoice Id' },
    { key: 'requestNumber', header: 'Request Number' },
    { key: 'scope', header: 'Scope' },
    { key: 'currency', header: 'Currency' },
    { key: 'amount', header: 'Amount', currency: true },
    { key: 'tax', header: 'Tax', currency: true },
    { key: 'amountExclusiveTax', header: 'Amount Excl. Tax', currency: true },
    { key: 'added', header: 'Added' },
    { key: 'paid', header: 'Paid' },
    { key: 'businessDays', header: 'Business Days To Pay' },
    { key: 'paymentId', header: 'Payment Id' },
    { key: 'paymentAmount', header: 'Payment Amount', currency: true },
    { key: 'balance', header: 'Balance', currency: true },
    { key: 'payee', header: 'Payee' },
    { key: 'payeeReference', header: 'Payee Reference' },
    { key: 'method', header: 'Payment Method', labels: PAYMENT_METHOD_NAMES },
    { key: 'paymentExclusiveTax', header: 'Payment Amount Excl. Tax', currency: true },
    { key: 'paymentTax', header: 'Payment Tax', currency: true },
  ],
  exportQuery(ctx, f, limit) {
    return sql`
      with inv as (${base(ctx, f)}), ${withDays(ctx, payments(f, limit))}
      select id as "invoiceId", request_number as "requestNumber", scope, coalesce(currency, 'AUD') as currency,
        amount, tax, amount_exclusive_tax as "amountExclusiveTax", created_at as added, paid_at as paid,
        business_days as "businessDays", payment_id as "paymentId", payment_amount as "paymentAmount",
        balance, payee_name as payee, payee_reference_number as "payeeReference", method,
        payment_exclusive_tax as "paymentExclusiveTax", payment_tax as "paymentTax"
      from y order by paid_at desc, payment_id desc`;
  },
};
