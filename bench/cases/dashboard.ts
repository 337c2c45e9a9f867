import { rowOf, sampleGroup } from '../lib/samples.js';
import type { BenchCase, BenchContext } from '../lib/types.js';

// The dashboard (issue 7). Target: the dashboard with all five tiles p95 under 200 ms on the
// 1,000,000 requests of `npm run bench:generate`. `dashboard` measures what a person waits for: the
// page fires GET /dashboard/{tile} for the five tiles at once, and a sample ends when the last has
// answered. The `dashboard-<tile>` cases load one tile each, to tell which one is slow.

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

/** Dashboards loaded side by side: each is five requests in flight at once. */
const DASHBOARD_CONNECTIONS = 2;

const wholeDashboard: BenchCase = {
  name: 'dashboard',
  description: 'the five tiles of /dashboard fired at once as handler; a sample ends with the last answer',
  load: (settings) => ({
    connections: Math.min(settings.connections, DASHBOARD_CONNECTIONS),
    duration: settings.duration,
  }),
  async target(ctx) {
    return {
      url: `${await ctx.dossierUrl()}/dashboard/activeTasks?pageSize=10`,
      headers: await headers(ctx),
      note: 'GET /dashboard/{activeTasks,correspondence,results,closedRequests,openRequests}?pageSize=10',
    };
  },
  async run(ctx, target, load) {
    const base = await ctx.dossierUrl();
    const group = TILES.map((tile) => ({
      url: `${base}/dashboard/${tile}?pageSize=10`,
      headers: target.headers ?? {},
    }));
    const sampled = await sampleGroup(group, { ...load, warmup: ctx.settings.warmup });
    return rowOf(
      'dashboard',
      sampled,
      load,
      `${target.note}; ${sampled.samples.length} dashboards, ${load.connections} at a time`,
    );
  },
};

export const dashboardCases: BenchCase[] = [
  wholeDashboard,
  ...TILES.map((tile) => tileCase(tile)),
  tileCase('activeTasks', 'due=today'),
];
