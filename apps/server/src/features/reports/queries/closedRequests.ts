import { sql } from 'kysely';
import { type ReportDefinition, weeklyChart } from '../definition.js';
import {
  countedRequests,
  KPI_AVERAGES,
  KPI_COLUMNS,
  KPI_PER_REQUEST,
  reportRequests,
  requestKpiCtes,
  withPendingTasks,
} from './requestKpi.js';

// Closed Requests: the requests closed within the dates, per sender organisation (scope), with how
// long they took (the KPI figures, averaged per request) and a chart of closures per week.

export const closedRequestsReport: ReportDefinition = {
  name: 'closedRequests',
  path: '/reports/requests/closed',
  title: 'Closed Requests',
  needs: [],
  filters: ['from', 'to', 'scope'],
  columns: [{ key: 'scope', kind: 'id' }, ...KPI_COLUMNS],
  async summary(ctx, f) {
    const closed = { closed: true };
    // The requests counted in request_days (migration 6002), with the pended days of those with a
    // pending task from their tasks. One pass over the KPI rows: the table per scope and the chart per week (grouping sets).
    const { rows } = await sql<Record<string, unknown>>`
      with ${requestKpiCtes(ctx.holidays, withPendingTasks(reportRequests(ctx, f, closed)), ctx.today, countedRequests(ctx, f, closed))}
      select grouping(scope) as by_week, scope, to_char(date_trunc('week', to_d), 'YYYY-MM-DD') as week,
        sum(n)::int as requests, ${KPI_AVERAGES}
      from kpi
      group by grouping sets ((scope), (date_trunc('week', to_d)))
      order by 1, 2, 3`.execute(ctx.db);
    const table = rows.filter((r) => r.by_week === 0);
    const weeks = rows.filter((r) => r.by_week === 1);
    return {
      rows: table.map(({ by_week: _, week: __, ...r }) => r as Record<string, number | string>),
      chart: weeklyChart('closedPerWeek', weeks, ['requests']),
    };
  },
  exportColumns: [
    { key: 'requestNumber', header: 'Request Number' },
    { key: 'scope', header: 'Scope' },
    { key: 'applicant', header: 'Applicant' },
    { key: 'recipient', header: 'Recipient' },
    { key: 'submitted', header: 'Submitted' },
    { key: 'closed', header: 'Closed' },
    { key: 'calendarDays', header: 'Calendar Days' },
    { key: 'businessDays', header: 'Business Days' },
    { key: 'businessDaysLessPended', header: 'Business Days Less Pended' },
    { key: 'daysPendedInternal', header: 'Days Pended Internal' },
    { key: 'daysPendedExternal', header: 'Days Pended External' },
  ],
  exportQuery(ctx, f, limit) {
    return sql`
      with ${requestKpiCtes(ctx.holidays, reportRequests(ctx, f, { closed: true }, limit), ctx.today)}, ${KPI_PER_REQUEST}
      select k.request_number as "requestNumber", k.scope, r.applicant_name as applicant,
        r.recipient_name as recipient, k.from_d::text as submitted, k.to_d::text as closed,
        k.calendar_days as "calendarDays", k.business_days as "businessDays",
        k.business_days_less_pended as "businessDaysLessPended",
        k.days_pended_internal as "daysPendedInternal", k.days_pended_external as "daysPendedExternal"
      from kpi_rows k join requests r on r.request_number = k.request_number
      order by r.closed_at desc, k.request_number desc`;
  },
};
