import type { BenchCase, BenchContext } from '../lib/types.js';

// The reports (issue 7). Target: any report over a year p95 under 1 s on the 1,000,000 requests of
// `npm run bench:generate`. Each case runs one report's summary (GET {path}/filter, as the Run
// Report form does) over the last 365 days as `manager`, with two reports running side by side.

const REPORT_CONNECTIONS = 2;

const REPORTS = [
  ['report-completed-tasks', '/reports/tasks/completed', ''],
  ['report-active-tasks', '/reports/tasks/active', 'filter.date=triggeredAt'],
  ['report-closed-requests', '/reports/requests/closed', ''],
  ['report-open-requests', '/reports/requests/open', ''],
  ['report-paid-invoices', '/reports/invoices/paid', ''],
  ['report-request-results', '/reports/request-results', ''],
  ['report-users', '/reports/users', ''],
] as const;

export const REPORT_USER = 'manager';

/** YYYY-MM-DD of the day `days` before today. */
export const dayBefore = (days: number) =>
  new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** The filters of a report over the last year, as the form sends them. */
export function lastYear(extra = ''): string {
  return `filter.from=${dayBefore(365)}&filter.to=${dayBefore(0)}${extra ? `&${extra}` : ''}`;
}

export const reportHeaders = async (ctx: BenchContext) => ({
  'x-requested-with': 'XMLHttpRequest',
  cookie: await ctx.sessionCookieOf(REPORT_USER),
});

export const reportCases: BenchCase[] = REPORTS.map(([name, path, extra]) => ({
  name,
  description: `GET ${path}/filter over the last 365 days as ${REPORT_USER}: the summary table`,
  load: (settings) => ({
    connections: Math.min(settings.connections, REPORT_CONNECTIONS),
    duration: settings.duration,
  }),
  async target(ctx) {
    const url = `${await ctx.dossierUrl()}${path}/filter?${lastYear(extra)}`;
    const probe = await fetch(url, { headers: await reportHeaders(ctx) });
    const answer = probe.ok ? ((await probe.json()) as { rows: unknown[] }) : undefined;
    return {
      url,
      headers: await reportHeaders(ctx),
      note: `${path}/filter?${lastYear(extra)}: ${answer ? `${answer.rows.length} rows` : `answered ${probe.status}`}`,
    };
  },
}));
