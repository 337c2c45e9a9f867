import { Worker } from 'node:worker_threads';
import type { Row } from './load.js';

// Measurements autocannon cannot make: a sample that is several requests at once (the dashboard's
// five tiles) or whose time to first byte matters (a CSV export). The requests are fired from a
// worker thread (fetchWorker.mjs) so the servers in this process keep their event loop.

export interface Request {
  url: string;
  headers?: Record<string, string>;
}

export interface Sample {
  totalMs: number;
  firstByteMs: number;
  bytes: number;
  failed: number;
  error?: string;
}

export interface Sampled {
  samples: Sample[];
  seconds: number;
  /** The machine's busy CPU time over the recorded seconds, in ms (Linux /proc/stat; absent elsewhere). */
  busyMs?: number;
}

export function sampleGroup(
  group: Request[],
  options: { connections: number; duration: number; warmup: number; maxSamples?: number },
): Promise<Sampled> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./fetchWorker.mjs', import.meta.url), {
      workerData: { group, ...options },
    });
    worker.once('message', (m: Sampled) => resolve(m));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the load worker stopped with code ${code}`));
    });
  });
}

/** The p-th percentile (0–100) by nearest rank. */
export function percentile(values: number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A table row from samples, latency being each sample's total time. */
export function rowOf(
  name: string,
  sampled: Sampled,
  load: { connections: number; duration: number },
  note: string,
): Row {
  const totals = sampled.samples.map((s) => s.totalMs);
  const failed = sampled.samples.reduce((n, s) => n + s.failed, 0);
  return {
    name,
    status: 'ok',
    note,
    ...load,
    rps: sampled.samples.length / sampled.seconds,
    p50: percentile(totals, 50),
    p95: percentile(totals, 95),
    p99: percentile(totals, 99),
    errors: sampled.samples.filter((s) => s.error).length,
    non2xx: failed,
  };
}
