import type { BenchCase, BenchContext } from '../lib/types.js';

// The dashboard (issue 7): GET /dashboard/{tile} for each of the five tiles as `handler`, the page
// with its counts table, as the page loads them. Target: the dashboard with all five tiles p95 under
// 200 ms on the 1,000,000 requests of `npm run bench:generate`; the page fires the five at once, so
// each tile's p95 under load bounds the dashboard's. BENCH_ONLY=dashboard-activeTasks,… (or the list
// DASHBOARD_CASES below) against BENCH_DATABASE_URL; see bench/README.md.

const TILES = ['activeTasks', 'correspondence', 'results', 'closedRequests', 'openRequests'] as const;

const headers = async (ctx: BenchContext) => ({
  'x-requested-with': 'XMLHttpRequest',
  cookie: await ctx.sessionCookie(),
});

function tileCase(tile: (typeof TILES)[number], query = ''): BenchCase {
  const suffix = query ? `-${query.split('=')[1]}` : '';
  return {
    name: `dashboard-${tile}${suffix}`,
    description: `GET /dashboard/${tile}?pageSize=10${query ? `&${query}` : ''} as handler: one tile with its counts`,
    async target(ctx) {
      const url = `${await ctx.dossierUrl()}/dashboard/${tile}?pageSize=10${query ? `&${query}` : ''}`;
      const probe = await fetch(url, { headers: await headers(ctx) });
      const answer = probe.ok
        ? ((await probe.json()) as { total: number; totalIsCapped: boolean })
        : undefined;
      return {
        url,
        headers: await headers(ctx),
        note: `/dashboard/${tile}${query ? `?${query}` : ''}: ${answer ? `${answer.total}${answer.totalIsCapped ? '+' : ''} entries` : `answered ${probe.status}`}`,
      };
    },
  };
}

export const dashboardCases: BenchCase[] = [
  ...TILES.map((tile) => tileCase(tile)),
  tileCase('activeTasks', 'due=today'),
];
