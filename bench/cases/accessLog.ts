import { setAccessLogging } from '../../apps/server/src/audit/accessLog.js';
import type { Row } from '../lib/load.js';
import { percentile, sampleGroup } from '../lib/samples.js';
import type { BenchCase, BenchContext } from '../lib/types.js';
import { requestView } from './requests.js';

// The access log (issue 36). Its cost on the request view: the same GET /requests/{n} with the log
// on and off, in alternating slices of one run (so drift of a shared machine falls on both alike),
// timed per request to the microsecond (autocannon's whole milliseconds cannot show 0.2 ms). And
// its own read: the Access tab's GET /requests/{n}/access, on the log `bench:generate` filled.

const SLICES = 6;

const xhrOf = async (ctx: BenchContext, user: string) => ({
  'x-requested-with': 'XMLHttpRequest',
  cookie: await ctx.sessionCookieOf(user),
});

function figures(samples: { totalMs: number; failed: number }[], seconds: number) {
  const totals = samples.map((s) => s.totalMs);
  return {
    rps: samples.length / seconds,
    p50: percentile(totals, 50),
    p95: percentile(totals, 95),
    p99: percentile(totals, 99),
    failed: samples.reduce((n, s) => n + s.failed, 0),
  };
}

export const requestViewAccessLog: BenchCase = {
  name: 'request-view-access-log',
  description: 'GET /requests/{n} as handler with the access log on, against off, in alternating slices',
  target: (ctx) => requestView.target(ctx),
  async run(ctx, target, load): Promise<Row> {
    const on: { totalMs: number; failed: number }[] = [];
    const off: { totalMs: number; failed: number }[] = [];
    let secondsOn = 0;
    let secondsOff = 0;
    const slice = Math.max(1, load.duration / SLICES);
    try {
      for (let i = 0; i < SLICES; i++) {
        const logging = i % 2 === 0;
        setAccessLogging(logging);
        const sampled = await sampleGroup([{ url: target.url, headers: target.headers ?? {} }], {
          connections: load.connections,
          duration: slice,
          warmup: i < 2 ? ctx.settings.warmup : 0,
        });
        (logging ? on : off).push(...sampled.samples);
        if (logging) secondsOn += sampled.seconds;
        else secondsOff += sampled.seconds;
      }
    } finally {
      setAccessLogging(true);
    }
    const a = figures(on, secondsOn);
    const b = figures(off, secondsOff);
    const added = (a.p95 ?? 0) - (b.p95 ?? 0);
    const note =
      `${target.note}: log on p50 ${a.p50?.toFixed(2)} / p95 ${a.p95?.toFixed(2)} ms, ${a.rps.toFixed(0)} req/s; ` +
      `off p50 ${b.p50?.toFixed(2)} / p95 ${b.p95?.toFixed(2)} ms, ${b.rps.toFixed(0)} req/s; p95 added ${added.toFixed(2)} ms`;
    console.log(`    ${note}`);
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

export const accessLogCases: BenchCase[] = [requestViewAccessLog, requestAccess];
