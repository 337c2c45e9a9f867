import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { ReportContext, ReportDefinition } from '../definition.js';
import { weeklyChart } from '../definition.js';
import { reportScopes, withinReportScopes } from './access.js';
import { TIME_ZONE } from './calendar.js';
import { inDateRange, inScope, type ReportFilters } from './filters.js';

// Access Log (issue 36): who read which request's personal data, from the access log
// (audit/accessLog.ts). The table counts per reader (a person or an API client) the reads by page,
// API and export, the files among them and the requests read; the chart the reads per week by how.
// An entry of a request counts inside the actor's report scopes; an export (no request: it named
// many) only for a reader of reports at the root. Filters: the period, a scope, a user (id, API client, or
// the start of a name), part of an applicant's name, a request number. The export is one line per
// entry, newest first; it names applicants, so it is itself an entry of the log (reports/routes.ts).

function entries(ctx: ReportContext, f: ReportFilters): RawBuilder<unknown> {
  const conditions: RawBuilder<SqlBool>[] = [
    inDateRange(sql.ref('a.at'), f),
    sql<SqlBool>`(case when a.request_number is null then ${reportScopes(ctx.actor).includes('/')}
      else coalesce(${withinReportScopes(ctx.actor, sql.ref('r.scope'))}, false) end)`,
  ];
  if (f.user)
    conditions.push(
      sql<SqlBool>`(a.user_id = ${f.user} or a.api_client = ${f.user} or starts_with(lower(u.name), lower(${f.user})))`,
    );
  if (f.applicant) conditions.push(sql<SqlBool>`strpos(lower(r.applicant_name), lower(${f.applicant})) > 0`);
  if (f.request) conditions.push(sql<SqlBool>`a.request_number = ${f.request}`);
  // A scope chooses its requests' entries (an export, of no one request, is left out).
  if (f.scope) conditions.push(sql<SqlBool>`coalesce(${inScope(sql.ref('r.scope'), f.scope)}, false)`);
  return sql`
    e as (
      select a.id, a.at, a.user_id, a.api_client, a.recipient_access_id, a.request_number, a.what, a.via,
        a.file_key, a.detail, a.address, r.applicant_name, r.scope,
        coalesce(u.name, a.user_id, a.api_client, a.recipient_access_id) as reader
      from access_log a
        left join requests r on r.request_number = a.request_number
        left join users u on u.id = a.user_id
      where ${sql.join(conditions, sql` and `)}
    )`;
}

export const accessLogReport: ReportDefinition = {
  name: 'accessLog',
  path: '/reports/access-log',
  title: 'Access Log',
  needs: [],
  filters: ['from', 'to', 'scope', 'user', 'applicant', 'request'],
  readsAccessLog: true,
  columns: [
    { key: 'user', kind: 'id' },
    { key: 'reads', kind: 'count' },
    { key: 'pages', kind: 'count' },
    { key: 'api', kind: 'count' },
    { key: 'exports', kind: 'count' },
    { key: 'files', kind: 'count' },
    { key: 'requests', kind: 'count' },
  ],
  async summary(ctx, f) {
    // A literal, not a parameter: the week in the select list must be the grouped expression itself.
    const zone = sql.lit(TIME_ZONE);
    const { rows } = await sql<Record<string, number | string | null>>`
      with ${entries(ctx, f)}
      select grouping(reader) as by_week, reader as "user",
        to_char(date_trunc('week', (at at time zone ${zone})), 'YYYY-MM-DD') as week,
        count(*)::int as reads,
        (count(*) filter (where via = 'page'))::int as pages,
        (count(*) filter (where via = 'api'))::int as api,
        (count(*) filter (where via = 'export'))::int as exports,
        (count(*) filter (where what = 'file'))::int as files,
        count(distinct request_number)::int as requests
      from e
      group by grouping sets ((reader), (date_trunc('week', (at at time zone ${zone}))))
      order by 1, 2, 3`.execute(ctx.db);
    const table = rows.filter((r) => Number(r.by_week) === 0);
    const weeks = rows.filter((r) => Number(r.by_week) === 1);
    return {
      rows: table.map(({ by_week: _, week: __, ...r }) => r),
      chart: weeklyChart('readsPerWeek', weeks, ['pages', 'api', 'exports']),
    };
  },
  exportColumns: [
    { key: 'at', header: 'When' },
    { key: 'reader', header: 'Who' },
    { key: 'userId', header: 'User Id' },
    { key: 'apiClient', header: 'API Client' },
    { key: 'requestNumber', header: 'Request Number' },
    { key: 'applicant', header: 'Applicant' },
    { key: 'what', header: 'What' },
    { key: 'via', header: 'How' },
    { key: 'fileKey', header: 'File' },
    { key: 'detail', header: 'Export' },
    { key: 'address', header: 'From' },
  ],
  exportQuery(ctx, f, limit) {
    return sql`
      with ${entries(ctx, f)}
      select at, reader, user_id as "userId", api_client as "apiClient", request_number as "requestNumber",
        applicant_name as applicant, what, via, file_key as "fileKey", detail::text as detail,
        host(address) as address
      from e order by at desc, id desc limit ${limit}`;
  },
};
