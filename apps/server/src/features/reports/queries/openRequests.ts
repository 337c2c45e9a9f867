import { sql } from 'kysely';
import type { ReportDefinition } from '../definition.js';
import { OPEN_STATUSES } from './filters.js';
import {
  countedRequests,
  KPI_AVERAGES,
  KPI_COLUMNS,
  KPI_PER_REQUEST,
  reportRequests,
  requestKpiCtes,
  withPendingTasks,
} from './requestKpi.js';

// Open Requests: the requests not closed (submitted or open), submitted within the dates, per
// sender organisation (scope), with their age so far (the KPI figures up to today); charted by age
// in business days.

export const AGE_BUCKETS = ['0-5', '6-10', '11-20', '21-40', '41+'] as const;
const bucketOf = sql`case when business_days <= 5 then '0-5' when business_days <= 10 then '6-10'
  when business_days <= 20 then '11-20' when business_days <= 40 then '21-40' else '41+' end`;

export const openRequestsReport: ReportDefinition = {
  name: 'openRequests',
  path: '/reports/requests/open',
  title: 'Open Requests',
  needs: [],
  filters: ['from', 'to', 'scope', 'status'],
  statuses: OPEN_STATUSES,
  columns: [{ key: 'scope', kind: 'id' }, ...KPI_COLUMNS],
  async summary(ctx, f) {
    // The requests counted in request_days (migration 6002), with the pended days of those with a
    // pending task from their tasks.
    const open = { closed: false, status: f.status };
    const { rows } = await sql<Record<string, unknown>>`
      with ${requestKpiCtes(ctx.holidays, withPendingTasks(reportRequests(ctx, f, open)), ctx.today, countedRequests(ctx, f, open))}
      select grouping(scope) as by_age, scope, ${bucketOf} as age, sum(n)::int as requests, ${KPI_AVERAGES}
      from kpi
      group by grouping sets ((scope), (${bucketOf}))
      order by 1, 2`.execute(ctx.db);
    const table = rows.filter((r) => r.by_age === 0);
    const ages = new Map(rows.filter((r) => r.by_age === 1).map((r) => [String(r.age), Number(r.requests)]));
    return {
      rows: table.map(({ by_age: _, age: __, ...r }) => r as Record<string, number | string>),
      chart: {
        title: 'openByAge',
        categories: [...AGE_BUCKETS],
        series: [{ key: 'requests', values: AGE_BUCKETS.map((b) => ages.get(b) ?? 0) }],
      },
    };
  },
  exportColumns: [
    { key: 'requestNumber', header: 'Request Number' },
    { key: 'scope', header: 'Scope' },
    { key: 'status', header: 'Status' },
    { key: 'applicant', header: 'Applicant' },
    { key: 'recipient', header: 'Recipient' },
    { key: 'submitted', header: 'Submitted' },
    { key: 'calendarDays', header: 'Calendar Days' },
    { key: 'businessDays', header: 'Business Days' },
    { key: 'businessDaysLessPended', header: 'Business Days Less Pended' },
    { key: 'daysPendedInternal', header: 'Days Pended Internal' },
    { key: 'daysPendedExternal', header: 'Days Pended External' },
  ],
  exportQuery(ctx, f, limit) {
    return sql`
      with ${requestKpiCtes(ctx.holidays, reportRequests(ctx, f, { closed: false, status: f.status }, limit), ctx.today)}, ${KPI_PER_REQUEST}
      select k.request_number as "requestNumber", k.scope, r.status, r.applicant_name as applicant,
        r.recipient_name as recipient, k.from_d::text as submitted,
        k.calendar_days as "calendarDays", k.business_days as "businessDays",
        k.business_days_less_pended as "businessDaysLessPended",
        k.days_pended_internal as "daysPendedInternal", k.days_pended_external as "daysPendedExternal"
      from kpi_rows k join requests r on r.request_number = k.request_number
      order by r.submitted_at desc, k.request_number desc`;
  },
};
