import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import type { Settings } from './settings.js';
import type { Target } from './types.js';

// autocannon reports the percentiles listed in this array (shared by reference with the function
// that fills them in, in the main thread also for worker runs); it has no p95, which the
// request-handling targets are stated in, so it is added once here.
const percentiles = createRequire(import.meta.url)('hdr-histogram-percentiles-obj').percentiles as number[];
if (!percentiles.includes(95)) percentiles.push(95);

export interface Row {
  name: string;
  status: 'ok' | 'failed' | 'skipped';
  note?: string;
  connections?: number;
  duration?: number;
  rps?: number;
  /** Latencies in ms; undefined when there was no sample to take them from (or no p95 reported). */
  p50?: number | undefined;
  p95?: number | undefined;
  p99?: number | undefined;
  errors?: number;
  non2xx?: number;
}

/** The target's method, with its headers and body when it has them. */
const requestOf = (target: Target) => ({
  method: target.method ?? 'GET',
  ...(target.headers === undefined ? {} : { headers: target.headers }),
  ...(target.body === undefined ? {} : { body: target.body }),
});

/** One request as the load will send it; answers a failure text when it is not a 2xx. */
export async function probe(target: Target): Promise<string | undefined> {
  try {
    const res = await fetch(target.url, { ...requestOf(target), redirect: 'manual' });
    const text = await res.text();
    if (res.status >= 200 && res.status < 300) return undefined;
    return `probe ${target.method ?? 'GET'} ${new URL(target.url).pathname} answered ${res.status}: ${text.slice(0, 200)}`;
  } catch (error) {
    return `probe failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Fires `target` for `duration` seconds over `connections` keep-alive connections. */
export async function measure(
  name: string,
  target: Target,
  load: { connections: number; duration: number },
  settings: Settings,
): Promise<Row> {
  const result = await autocannon({
    url: target.url,
    ...requestOf(target),
    connections: load.connections,
    duration: load.duration,
    // A worker thread keeps the load generator off the event loop of the servers it measures.
    ...(settings.workers > 0 ? { workers: settings.workers } : {}),
    ...(settings.warmup > 0 ? { warmup: { connections: load.connections, duration: settings.warmup } } : {}),
  });
  return {
    name,
    status: 'ok',
    ...(target.note === undefined ? {} : { note: target.note }),
    ...load,
    rps: result.requests.average,
    p50: result.latency.p50,
    p95: (result.latency as unknown as Record<string, number | undefined>).p95,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
