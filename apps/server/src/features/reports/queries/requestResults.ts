import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { visibleRequests } from '../../requests/index.js';
import { type ReportContext, type ReportDefinition, weeklyChart } from '../definition.js';
import { withinReportScopes } from './access.js';
import { calendarCte, holidaySetOf, localDate } from './calendar.js';
import { inDateRange, inDayRange, inScope, RESULT_STATUSES, type ReportFilters } from './filters.js';

// Request Results: the results added within the dates, per sender organisation: how many, how many
// quality-assured (or with QA skipped), awaiting QA, downloaded and discarded, the QA ratio and the
// business days from the request's submission to the result. The same data as Download Files.
// Charted as results added per week, stacked by their state.

const STATE = sql<string>`case when q.discarded_at is not null then 'discarded'
  when q.downloaded_at is not null then 'downloaded'
  when q.quality_assured_at is not null or q.quality_assurance_skipped then 'qualityAssured'
  else 'awaitingQa' end`;

function base(ctx: ReportContext, f: ReportFilters, limit?: number): RawBuilder<unknown> {
  let q = ctx.db
    .selectFrom('request_results as res')
    .innerJoin('requests', 'requests.request_number', 'res.request_number')
    .select([
      'res.id',
      'res.request_number',
      'requests.scope',
      'requests.applicant_name',
      'requests.submitted_at',
      'res.created_at',
      'res.quality_assured_at',
      'res.quality_assurance_skipped',
      'res.downloaded_at',
      'res.discarded_at',
    ])
    .where(visibleRequests(ctx.actor))
    .where(withinReportScopes(ctx.actor, sql.ref('requests.scope')))
    .where(inDateRange(sql.ref('res.created_at'), f))
    .where(inScope(sql.ref('requests.scope'), f.scope) as RawBuilder<SqlBool>);
  if (limit !== undefined) q = q.orderBy('res.created_at', 'desc').orderBy('res.id', 'desc').limit(limit);
  return sql`${q}`;
}

/**
 * The same rows as counted in request_result_days (alias d): within the actor's report scopes (a
 * role with reports:view grants request:view there too, so visibleRequests adds nothing), the
 * chosen scope and state, added within the dates (local days).
 */
function resultDayConditions(ctx: ReportContext, f: ReportFilters): RawBuilder<SqlBool> {
  return sql<SqlBool>`${withinReportScopes(ctx.actor, sql.ref('d.scope'))}
    and ${inDayRange(sql.ref('d.created_on'), f)}
    and ${inScope(sql.ref('d.scope'), f.scope)}
    and ${f.status ? sql`d.state = ${f.status}` : sql`true`}`;
}

function withState(ctx: ReportContext, f: ReportFilters, limit?: number) {
  const h = ctx.holidays;
  return sql`
    cal as materialized (${calendarCte(h)}),
    x as (
      select q.*, ${STATE} as state, ${holidaySetOf(h, sql.ref('q.scope'))} as set_id,
        ${localDate(sql.ref('q.submitted_at'), h)} as from_d, ${localDate(sql.ref('q.created_at'), h)} as to_d
      from (${base(ctx, f, limit)}) q
    ),
    y as (
      select x.*, greatest(0, c2.n - c1.n) as business_days
      from x
        join cal c1 on c1.set_id = x.set_id and c1.d = x.from_d
        join cal c2 on c2.set_id = x.set_id and c2.d = x.to_d
      where ${f.status ? sql`x.state = ${f.status}` : sql`true`}
    )`;
}

export const requestResultsReport: ReportDefinition = {
  name: 'requestResults',
  path: '/reports/request-results',
  title: 'Request Results',
  needs: ['request:view:content'],
  feature: 'resultFileDownloadTracking',
  filters: ['from', 'to', 'scope', 'status'],
  statuses: RESULT_STATUSES,
  columns: [
    { key: 'scope', kind: 'id' },
    { key: 'results', kind: 'count' },
    { key: 'qualityAssured', kind: 'count' },
    { key: 'awaitingQa', kind: 'count' },
    { key: 'downloaded', kind: 'count' },
    { key: 'discarded', kind: 'count' },
    { key: 'qaRatio', kind: 'ratio', numerator: 'qualityAssuredAll', denominator: 'results' },
    { key: 'businessDays', kind: 'average', weightedBy: 'results', unit: 'businessDays' },
  ],
  async summary(ctx, f) {
    // One pass over the counts kept per day pair and state in request_result_days (migration 6001):
    // the table per scope and the chart per week (grouping sets).
    const h = ctx.holidays;
    const { rows } = await sql<Record<string, unknown>>`
      with cal as materialized (${calendarCte(h)}),
      x as (
        select d.scope, d.state, ${holidaySetOf(h, sql.ref('d.scope'))} as set_id, d.submitted_on as from_d,
          d.created_on as to_d, sum(d.n) as n
        from request_result_days d where ${resultDayConditions(ctx, f)}
        group by 1, 2, 3, 4, 5 having sum(d.n) > 0
      ),
      y as (
        select x.*, greatest(0, c2.n - c1.n) as business_days
        from x
          join cal c1 on c1.set_id = x.set_id and c1.d = x.from_d
          join cal c2 on c2.set_id = x.set_id and c2.d = x.to_d
      )
      select grouping(scope) as by_week, scope, to_char(date_trunc('week', to_d), 'YYYY-MM-DD') as week,
        sum(n)::int as results,
        coalesce(sum(n) filter (where state = 'qualityAssured'), 0)::int as "qualityAssured",
        coalesce(sum(n) filter (where state = 'awaitingQa'), 0)::int as "awaitingQa",
        coalesce(sum(n) filter (where state = 'downloaded'), 0)::int as downloaded,
        coalesce(sum(n) filter (where state = 'discarded'), 0)::int as discarded,
        coalesce(sum(n) filter (where state in ('qualityAssured', 'downloaded')), 0)::int as "qualityAssuredAll",
        (sum(n * business_days) / sum(n))::float8 as "businessDays"
      from y
      group by grouping sets ((scope), (date_trunc('week', to_d)))
      order by 1, 2, 3`.execute(ctx.db);
    const table = rows.filter((r) => r.by_week === 0).map(({ by_week: _, week: __, ...r }) => r);
    const weeks = rows
      .filter((r) => r.by_week === 1)
      .map(({ week, qualityAssured, awaitingQa, downloaded, discarded }) => ({
        week,
        qualityAssured,
        awaitingQa,
        downloaded,
        discarded,
      }));
    return {
      rows: table.map((r) => ({ ...r, qaRatio: ratioRow(r as Record<string, number | string>) })) as Record<
        string,
        number | string
      >[],
      chart: weeklyChart('resultsPerWeek', weeks, RESULT_STATUSES),
    };
  },
  exportColumns: [
    { key: 'resultId', header: 'Result Id' },
    { key: 'requestNumber', header: 'Request Number' },
    { key: 'scope', header: 'Scope' },
    { key: 'applicant', header: 'Applicant' },
    { key: 'added', header: 'Added' },
    { key: 'state', header: 'Status' },
    { key: 'qualityAssuredAt', header: 'Quality Assured' },
    { key: 'downloadedAt', header: 'Downloaded' },
    { key: 'businessDays', header: 'Business Days From Submission' },
  ],
  exportQuery(ctx, f, limit) {
    return sql`
      with ${withState(ctx, f, limit)}
      select id as "resultId", request_number as "requestNumber", scope, applicant_name as applicant,
        created_at as added, state, quality_assured_at as "qualityAssuredAt", downloaded_at as "downloadedAt",
        business_days as "businessDays"
      from y order by created_at desc, id desc`;
  },
};

function ratioRow(r: Record<string, number | string>): number | null {
  const results = Number(r.results);
  return results === 0 ? null : Number(r.qualityAssuredAll) / results;
}
