import type { ReportColumn } from '@dossier/core';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { visibleRequests } from '../../requests/index.js';
import type { ReportContext } from '../definition.js';
import { withinReportScopes } from './access.js';
import { calendarCte, type HolidaySets, holidaySetOf, localDate } from './calendar.js';
import { inDateRange, inDayRange, inScope, type ReportFilters } from './filters.js';

// The KPI figures of many requests at once, in SQL, by the rules of packages/core requests/kpi.ts
// (computeRequestKpi, used one request at a time on the request page; the report test compares
// both). The clock runs from the local submission date to the close date (or today). Days pended
// external / internal are business days on which a senderActionRequired / actionDeferred task was
// open; overlapping tasks count a day once (range_agg merges them), and a day pended both ways is
// taken off the business days once.

/**
 * CTEs for `with …`: `cal`, `b` (the base rows: request_number, scope, set_id, from_d, to_d), the
 * pended-day steps and `kpi` (b's columns plus calendar_days, business_days,
 * business_days_less_pended, days_pended_internal, days_pended_external). `base` selects
 * request_number, scope, submitted_at and closed_at of the requests to report on. With `counted`
 * (countedRequests: the same requests counted in request_days), `base` need only hold the requests
 * with a pending task (withPendingTasks): the counts give every request's dates, and the pended days
 * of those few are added as a correction (each counted once more with its pended days and once less
 * without: the averages are sums, so the difference is exact).
 */
export function requestKpiCtes(
  h: HolidaySets,
  base: RawBuilder<unknown>,
  today: string,
  counted?: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const s = (c: string) => sql.ref(`q.${c}`);
  return sql`
    cal as materialized (${calendarCte(h)}),
    b as materialized (
      select q.request_number, q.scope, ${holidaySetOf(h, s('scope'))} as set_id,
        ${localDate(s('submitted_at'), h)} as from_d,
        coalesce(${localDate(s('closed_at'), h)}, ${today}::date) as to_d
      from (${base}) q
    ),
    pend_tasks as (
      select b.request_number, b.set_id, t.type,
        greatest(${localDate(sql.ref('t.triggered_at'), h)}, b.from_d) as lo,
        least(coalesce(${localDate(sql.ref('t.completed_at'), h)}, b.to_d), b.to_d) as hi
      from b join tasks t on t.request_number = b.request_number
      where t.type in ('senderActionRequired', 'actionDeferred')
    ),
    pend_ranges as (
      select request_number, set_id,
        range_agg(daterange(lo, hi, '(]')) filter (where type = 'senderActionRequired') as ext,
        range_agg(daterange(lo, hi, '(]')) filter (where type = 'actionDeferred') as int,
        range_agg(daterange(lo, hi, '(]')) as any
      from pend_tasks where lo < hi
      group by request_number, set_id
    ),
    pend_parts as (
      select p.request_number, p.set_id, k.kind, lower(rg) - 1 as lo, upper(rg) - 1 as hi
      from pend_ranges p
        cross join lateral (values ('ext', p.ext), ('int', p.int), ('any', p.any)) k (kind, ranges)
        cross join lateral unnest(k.ranges) rg
    ),
    pend as (
      select pp.request_number,
        coalesce(sum(c2.n - c1.n) filter (where pp.kind = 'ext'), 0)::int as ext_days,
        coalesce(sum(c2.n - c1.n) filter (where pp.kind = 'int'), 0)::int as int_days,
        coalesce(sum(c2.n - c1.n) filter (where pp.kind = 'any'), 0)::int as any_days
      from pend_parts pp
        join cal c1 on c1.set_id = pp.set_id and c1.d = pp.lo
        join cal c2 on c2.set_id = pp.set_id and c2.d = pp.hi
      group by pp.request_number
    ),
    -- The KPI figures per combination of scope, dates and pended days, with how many requests share
    -- it (n): a year of closed requests is ~250,000 rows but far fewer combinations, and the
    -- calendar lookups run once per combination.
    kpi_groups as (${
      counted
        ? sql`
      select scope, set_id, from_d, to_d, any_days, int_days, ext_days, sum(n) as n from (
        select c.scope, c.set_id, c.from_d, c.to_d, 0 as any_days, 0 as int_days, 0 as ext_days, c.n
        from (${counted}) c
        union all
        select b.scope, b.set_id, b.from_d, b.to_d, p.any_days, p.int_days, p.ext_days, 1
        from b join pend p on p.request_number = b.request_number
        union all
        select b.scope, b.set_id, b.from_d, b.to_d, 0, 0, 0, -1
        from b join pend p on p.request_number = b.request_number
      ) u
      group by 1, 2, 3, 4, 5, 6, 7 having sum(n) <> 0`
        : sql`
      select b.scope, b.set_id, b.from_d, b.to_d, coalesce(p.any_days, 0) as any_days,
        coalesce(p.int_days, 0) as int_days, coalesce(p.ext_days, 0) as ext_days, count(*) as n
      from b left join pend p on p.request_number = b.request_number
      group by 1, 2, 3, 4, 5, 6, 7`
    }
    ),
    kpi as (
      select g.scope, g.from_d, g.to_d, g.n,
        greatest(0, g.to_d - g.from_d) as calendar_days,
        greatest(0, c2.n - c1.n) as business_days,
        greatest(0, c2.n - c1.n - g.any_days) as business_days_less_pended,
        g.int_days as days_pended_internal,
        g.ext_days as days_pended_external
      from kpi_groups g
        join cal c1 on c1.set_id = g.set_id and c1.d = g.from_d
        join cal c2 on c2.set_id = g.set_id and c2.d = g.to_d
    )`;
}

/** Per request (export): the KPI figures of each row of `b`. */
export const KPI_PER_REQUEST = sql`
  kpi_rows as (
    select b.request_number, b.scope, b.from_d, b.to_d,
      greatest(0, b.to_d - b.from_d) as calendar_days,
      greatest(0, c2.n - c1.n) as business_days,
      greatest(0, c2.n - c1.n - coalesce(p.any_days, 0)) as business_days_less_pended,
      coalesce(p.int_days, 0) as days_pended_internal,
      coalesce(p.ext_days, 0) as days_pended_external
    from b
      join cal c1 on c1.set_id = b.set_id and c1.d = b.from_d
      join cal c2 on c2.set_id = b.set_id and c2.d = b.to_d
      left join pend p on p.request_number = b.request_number
  )`;

/**
 * The requests a request report counts (the rows `requestKpiCtes` takes): closed ones by their
 * close date, or those still open by their submission date (optionally of one status); visible to
 * the actor, within its report scopes and the chosen scope. With a limit (an export), newest first.
 */
export function reportRequests(
  ctx: ReportContext,
  f: ReportFilters,
  which: { closed: boolean; status?: string | undefined },
  limit?: number,
): RawBuilder<unknown> {
  const dated = which.closed ? 'requests.closed_at' : 'requests.submitted_at';
  let q = ctx.db
    .selectFrom('requests')
    .select(['requests.request_number', 'requests.scope', 'requests.submitted_at', 'requests.closed_at'])
    .where('requests.status', which.closed ? '=' : '<>', 'closed')
    .where(visibleRequests(ctx.actor))
    .where(withinReportScopes(ctx.actor, sql.ref('requests.scope')))
    .where(inDateRange(sql.ref(dated), f))
    .where(inScope(sql.ref('requests.scope'), f.scope) as RawBuilder<SqlBool>);
  if (which.status) q = q.where('requests.status', '=', which.status as 'submitted' | 'open');
  if (limit !== undefined)
    q = q.orderBy(dated, 'desc').orderBy('requests.request_number', 'desc').limit(limit);
  return sql`${q}`;
}

/**
 * The same requests as reportRequests, counted in request_days (migration 6002, alias d), as rows
 * of scope, set_id, from_d, to_d and n for requestKpiCtes' `counted`. Within the actor's report
 * scopes (a role with reports:view grants request:view there too, so visibleRequests adds nothing).
 * A close day of 'infinity' is none: the clock runs to today, and a date range leaves it out.
 */
export function countedRequests(
  ctx: ReportContext,
  f: ReportFilters,
  which: { closed: boolean; status?: string | undefined },
): RawBuilder<unknown> {
  const h = ctx.holidays;
  const dated = which.closed ? sql.ref('d.closed_on') : sql.ref('d.submitted_on');
  const bounded = which.closed && (f.from || f.to);
  return sql`
    select d.scope, ${holidaySetOf(h, sql.ref('d.scope'))} as set_id, d.submitted_on as from_d,
      case when d.closed_on = 'infinity' then ${ctx.today}::date else d.closed_on end as to_d, sum(d.n) as n
    from request_days d
    where ${which.closed ? sql`d.status = 'closed'` : sql`d.status <> 'closed'`}
      and ${which.status ? sql`d.status = ${which.status}` : sql`true`}
      and ${withinReportScopes(ctx.actor, sql.ref('d.scope'))}
      and ${inDayRange(dated, f)} and ${bounded ? sql`d.closed_on <> 'infinity'` : sql`true`}
      and ${inScope(sql.ref('d.scope'), f.scope)}
    group by 1, 2, 3, 4 having sum(d.n) > 0`;
}

/** Only the requests of `base` with a pending task, whose pended days the counts cannot give. */
export function withPendingTasks(base: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select q.* from (${base}) q where q.request_number in (
    select t.request_number from tasks t where t.type in ('senderActionRequired', 'actionDeferred'))`;
}

/** The request count and the KPI averages weighted by it: the columns of the two request reports. */
export const KPI_COLUMNS: ReportColumn[] = [
  { key: 'requests', kind: 'count' },
  { key: 'calendarDays', kind: 'average', weightedBy: 'requests', unit: 'calendarDays' },
  { key: 'businessDays', kind: 'average', weightedBy: 'requests', unit: 'businessDays' },
  {
    key: 'businessDaysLessPended',
    kind: 'average',
    weightedBy: 'requests',
    unit: 'businessDaysLessPended',
  },
  { key: 'daysPendedInternal', kind: 'average', weightedBy: 'requests', unit: 'daysPendedInternal' },
  { key: 'daysPendedExternal', kind: 'average', weightedBy: 'requests', unit: 'daysPendedExternal' },
];

/** The averages of the KPI columns over grouped `kpi` rows (weighted by n), as report columns. */
export const KPI_AVERAGES = sql`
  (sum(n * calendar_days) / sum(n))::float8 as "calendarDays",
  (sum(n * business_days) / sum(n))::float8 as "businessDays",
  (sum(n * business_days_less_pended) / sum(n))::float8 as "businessDaysLessPended",
  (sum(n * days_pended_internal) / sum(n))::float8 as "daysPendedInternal",
  (sum(n * days_pended_external) / sum(n))::float8 as "daysPendedExternal"`;
