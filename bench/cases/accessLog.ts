import { FLUSH_MS, setAccessLogging } from '../../apps/server/src/audit/accessLog.js';
import { accessLogEntryCost } from '../lib/accessLogCost.js';
import type { Row } from '../lib/load.js';
import { percentile, sampleGroup } from '../lib/samples.js';
import type { BenchCase, BenchContext } from '../lib/types.js';
import { requestView } from './requests.js';

// The access log (issue 36). Its cost on the request view: the same GET /requests/{n} with the log
// on and off in slices of one run, timed per request to the microsecond (autocannon's whole
// milliseconds cannot show 0.2 ms). The slices go on, off, off, on, on, off, off, on: each half of
// the order is balanced, so a drift of the machine or of the server over the run (a first slice is
// slower even after a warm-up, as an on-against-on run showed) falls on both alike. The off slices
// also give the measurement's own resolution: the p95 of slices 2 and 7 against slices 3 and 6, off
// against off, which a difference on against off must clearly exceed to mean anything.
// And the log's own read: the Access tab's GET /requests/{n}/access, on the log `bench:generate` filled.

const ORDER = [true, false, false, true, true, false, false, true];

type Timed = { totalMs: number; failed: number };

const xhrOf = async (ctx: BenchContext, user: string) => ({
  'x-requested-with': 'XMLHttpRequest',
  cookie: await ctx.sessionCookieOf(user),
});

function figures(samples: Timed[], seconds: number) {
  const totals = samples.map((s) => s.totalMs);
  return {
    rps: samples.length / seconds,
    p50: percentile(totals, 50),
    p95: percentile(totals, 95),
    p99: percentile(totals, 99),
    failed: samples.reduce((n, s) => n + s.failed, 0),
  };
}

const p95Of = (slices: Timed[][]) =>
  percentile(
    slices.flat().map((s) => s.totalMs),
    95,
  ) ?? 0;

export const requestViewAccessLog: BenchCase = {
  name: 'request-view-access-log',
  description: 'GET /requests/{n} as handler with the access log on, against off, in balanced slices',
  target: (ctx) => requestView.target(ctx),
  async run(ctx, target, load): Promise<Row> {
    const slices: { logging: boolean; samples: Timed[]; seconds: number; cpuMs: number }[] = [];
    const seconds = Math.max(1, load.duration / ORDER.length);
    try {
      for (const [i, logging] of ORDER.entries()) {
        setAccessLogging(logging);
        const sampled = await sampleGroup([{ url: target.url, headers: target.headers ?? {} }], {
          connections: load.connections,
          duration: seconds,
          // The first slice's warm-up is a slice long; the others only open their connections.
          warmup: i === 0 ? Math.max(ctx.settings.warmup, seconds) : Math.min(ctx.settings.warmup, 0.5),
        });
        slices.push({
          logging,
          samples: sampled.samples,
          seconds: sampled.seconds,
          cpuMs: sampled.busyMs ?? Number.NaN,
        });
      }
    } finally {
      setAccessLogging(true);
    }
    const side = (logging: boolean) => slices.filter((s) => s.logging === logging);
    const of = (logging: boolean) =>
      figures(
        side(logging).flatMap((s) => s.samples),
        side(logging).reduce((n, s) => n + s.seconds, 0),
      );
    const a = of(true);
    const b = of(false);
    // The machine's CPU per view (every process: the server, its database, the load generator):
    // a steadier figure than a latency, which queueing on two saturated cores scatters. On a quiet
    // machine the log's cost is the difference.
    const cpuPerView = (logging: boolean) =>
      side(logging).reduce((n, s) => n + s.cpuMs, 0) /
      side(logging).reduce((n, s) => n + s.samples.length, 0);
    const cpuOn = cpuPerView(true);
    const cpuOff = cpuPerView(false);
    const added = (a.p95 ?? 0) - (b.p95 ?? 0);
    const control =
      p95Of([slices[1], slices[6]].map((s) => s?.samples ?? [])) -
      p95Of([slices[2], slices[5]].map((s) => s?.samples ?? []));
    const note =
      `${target.note}: log on p50 ${a.p50?.toFixed(2)} / p95 ${a.p95?.toFixed(2)} ms, ${a.rps.toFixed(0)} req/s; ` +
      `off p50 ${b.p50?.toFixed(2)} / p95 ${b.p95?.toFixed(2)} ms, ${b.rps.toFixed(0)} req/s; ` +
      `p95 added ${added.toFixed(2)} ms (off against off: ${control.toFixed(2)} ms); ` +
      `CPU a view on ${cpuOn.toFixed(2)} / off ${cpuOff.toFixed(2)} ms (${(((cpuOn - cpuOff) / cpuOff) * 100).toFixed(1)} %)`;
    console.log(`    ${note}`);
    // The same cost measured directly: an entry's CPU at the batches the server writes at this
    // rate (the entries of one FLUSH_MS), against a view's CPU, is the share of the p95 it adds on
    // saturated cores.
    const atRate = Math.max(1, Math.round(a.rps * (FLUSH_MS / 1000)));
    const costs = await accessLogEntryCost(await ctx.databaseUrl(), [...new Set([9, atRate])]);
    for (const c of costs ?? []) {
      const us = c.serverUs + c.databaseUs;
      console.log(
        `    an entry in batches of ${c.batch}: ${us.toFixed(1)} µs CPU (server ${c.serverUs.toFixed(1)}, database ${c.databaseUs.toFixed(1)}) = ` +
          `${((us / 1000 / cpuOff) * 100).toFixed(2)} % of a view's ${cpuOff.toFixed(2)} ms, about ${(((b.p95 ?? 0) * us) / 1000 / cpuOff).toFixed(2)} ms of its p95`,
      );
    }
    return {
      name: 'request-view-access-log',
      status: 'ok',
      note,
      ...load,
      rps: a.rps,
      p50: a.p50,
      p95: a.p95,
      p99: a.p99,
      errors: 0,
      non2xx: a.failed + b.failed,
    };
  },
};

export const requestAccess: BenchCase = {
  name: 'request-access',
  description: "GET /requests/{n}/access as manager: the Access tab's first page",
  async target(ctx) {
    const view = await requestView.target(ctx);
    if ('skip' in view) return view;
    const url = `${view.url}/access`;
    const count = await fetch(url, { headers: await xhrOf(ctx, 'manager') })
      .then((r) => r.json() as Promise<{ entries: unknown[]; hasMore: boolean }>)
      .then((a) => `${a.entries.length}${a.hasMore ? '+' : ''} entries on the first page`)
      .catch(() => 'size unknown');
    return { url, headers: await xhrOf(ctx, 'manager'), note: `${view.note}/access (${count})` };
  },
};

const DEEP_PAGE = 20;

export const requestAccessDeep: BenchCase = {
  name: 'request-access-deep',
  description: `GET /requests/{n}/access?before=… as manager: the Access tab's page ${DEEP_PAGE}, by its cursor`,
  async target(ctx) {
    const first = await requestAccess.target(ctx);
    if ('skip' in first) return first;
    const headers = await xhrOf(ctx, 'manager');
    let url = first.url;
    let page = 1;
    for (; page < DEEP_PAGE; page++) {
      const answer = (await fetch(url, { headers }).then((r) => r.json())) as { next: string | null };
      if (!answer.next) break;
      url = `${first.url}?before=${encodeURIComponent(answer.next)}`;
    }
    // A request with fewer entries gives its last page: the note says which page was reached.
    return { url, headers, note: `${first.note}, page ${page}` };
  },
};

export const accessLogCases: BenchCase[] = [requestViewAccessLog, requestAccess, requestAccessDeep];
