import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { visibleRequests } from '../requests/policy.js';
import { withinReportScopes } from './access.js';
import { calendarCte, holidaySetOf, localDate } from './calendar.js';
import type { ReportContext, ReportDefinition } from './definition.js';
import { inDateRange, inScope, type ReportFilters } from './filters.js';

// Paid Invoices: the invoices paid within the dates (not discarded), per sender organisation and
// currency: how many, the amounts (minor units; shown formatted, exported as decimals), the average
// amount and the business days from the invoice's arrival to its payment.

function base(ctx: ReportContext, f: ReportFilters, limit?: number): RawBuilder<unknown> {
  let q = ctx.db
    .selectFrom('request_invoices as i')
    .innerJoin('requests', 'requests.request_number', 'i.request_number')
    .select([
      'i.id',
      'i.request_number',
      'requests.scope',
      'i.currency',
      'i.amount',
      'i.tax',
      'i.created_at',
      'i.paid_at',
    ])
    .where('i.paid_at', 'is not', null)
    .where('i.discarded_at', 'is', null)
    .where(visibleRequests(ctx.actor))
    .where(withinReportScopes(ctx.actor, sql.ref('requests.scope')))
    .where(inDateRange(sql.ref('i.paid_at'), f))
    .where(inScope(sql.ref('requests.scope'), f.scope) as RawBuilder<SqlBool>);
  if (f.currency) q = q.where('i.currency', '=', f.currency);
  if (limit !== undefined) q = q.orderBy('i.paid_at', 'desc').orderBy('i.id', 'desc').limit(limit);
  return sql`${q}`;
}

function withDays(ctx: ReportContext, query: RawBuilder<unknown>) {
  const h = ctx.holidays;
  return sql`
    cal as materialized (${calendarCte(h)}),
    x as (
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
    const { rows } = await sql<Record<string, number | string>>`
      with ${withDays(ctx, base(ctx, f))}
      select scope, coalesce(currency, 'AUD') as currency, count(*)::int as invoices,
        coalesce(sum(amount), 0)::float8 as amount, coalesce(sum(tax), 0)::float8 as tax,
        avg(amount)::float8 as "averageAmount", avg(business_days)::float8 as "businessDays"
      from y group by scope, coalesce(currency, 'AUD') order by scope, 2`.execute(ctx.db);
    return { rows, chart: null };
  },
  exportColumns: [
    { key: 'invoiceId', header: 'Invoice Id' },
    { key: 'requestNumber', header: 'Request Number' },
    { key: 'scope', header: 'Scope' },
    { key: 'currency', header: 'Currency' },
    { key: 'amount', header: 'Amount', currency: true },
    { key: 'tax', header: 'Tax', currency: true },
    { key: 'added', header: 'Added' },
    { key: 'paid', header: 'Paid' },
    { key: 'businessDays', header: 'Business Days To Pay' },
  ],
  exportQuery(ctx, f, limit) {
    return sql`
      with ${withDays(ctx, base(ctx, f, limit))}
      select id as "invoiceId", request_number as "requestNumber", scope, coalesce(currency, 'AUD') as currency,
        amount, tax, created_at as added, paid_at as paid, business_days as "businessDays"
      from y order by paid_at desc, id desc`;
  },
};
