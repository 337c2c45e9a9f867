// The part of autocannon's programmatic API the benchmark uses (the package ships no types, and
// @types/autocannon is not a dependency).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    [percentile: string]: number;
  }

  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    workers?: number;
    timeout?: number;
    warmup?: { connections?: number; duration?: number };
  }

  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    mismatches: number;
    duration: number;
    [key: string]: unknown;
  }

  function autocannon(options: Options): Promise<Result> & { stop(): void };
  export = autocannon;
}
