// `npm run bench:explain`: where a case's time goes (issue 15). For each bench case that reads
// through a GET (the request view, the searches, the dashboard tiles, the reports) it loads the page
// once to warm up, then once more while recording every query the app sends with its wall time,
// and runs EXPLAIN (ANALYZE, BUFFERS) of each recorded read on the same database. It prints, per
// case, the answer's time against the time spent in queries, the query count and the slowest
// queries with their plans' top lines; the whole plans go to .tmp/explain/<case>.txt.
// Meant for the database of `npm run bench:generate` (BENCH_DATABASE_URL); BENCH_ONLY picks cases.

import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { CASES } from './cases/index.js';
import { createContext } from './lib/context.js';
import { ROOT } from './lib/servers.js';
import { readSettings } from './lib/settings.js';
import type { BenchCase, BenchContext, Target } from './lib/types.js';

interface Recorded {
  text: string;
  values: unknown[];
  ms: number;
}

let recording: Recorded[] | undefined;

// Every query of the app goes through pg.Client#query (Kysely's pool and pg-boss alike): wrap it
// to time the promise form the app uses.
const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const result = clientQuery.apply(this, args);
  const into = recording;
  const [config, values] = args as [string | { text?: string; values?: unknown[] }, unknown];
  const text = typeof config === 'string' ? config : config?.text;
  if (!into || !text || !(result instanceof Promise)) return result;
  const started = performance.now();
  const entry = {
    text,
    values: Array.isArray(values) ? values : ((config as { values?: unknown[] }).values ?? []),
  };
  return result.then((answer) => {
    into.push({ ...entry, ms: performance.now() - started });
    return answer;
  });
} as typeof pg.Client.prototype.query;

/** Reads only: EXPLAIN ANALYZE runs the statement, so writes (session touches, visits) are left out. */
const isRead = (sql: string) =>
  /^\s*(select|with)\b/i.test(sql) && !/\b(insert|update|delete)\b/i.test(sql) && !/pgboss/i.test(sql);

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

async function timedFetch(target: Target): Promise<{ ms: number; status: number; bytes: number }> {
  const started = performance.now();
  const res = await fetch(target.url, { method: target.method ?? 'GET', headers: target.headers ?? {} });
  const body = await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status, bytes: body.byteLength };
}

async function explainCase(c: BenchCase, ctx: BenchContext, client: pg.Client, outDir: string) {
  const target = await c.target(ctx);
  if ('skip' in target) return console.log(`\n## ${c.name}: skipped, ${target.skip}`);
  if (target.method && target.method !== 'GET') return console.log(`\n## ${c.name}: skipped, not a read`);
  await timedFetch(target);
  recording = [];
  const answer = await timedFetch(target);
  const queries = recording;
  recording = undefined;

  const inQueries = queries.reduce((sum, q) => sum + q.ms, 0);
  console.log(
    `\n## ${c.name}: ${target.note ?? target.url}\n   answer ${answer.status} in ${answer.ms.toFixed(1)} ms` +
      ` (${(answer.bytes / 1024).toFixed(1)} KB); ${queries.length} queries, ${inQueries.toFixed(1)} ms in them` +
      ` (summed; queries of one answer may overlap)`,
  );
  const plans: string[] = [];
  for (const [i, q] of queries.entries()) {
    let summary = '(not a read: not explained)';
    if (isRead(q.text)) {
      const { rows } = await client.query(`explain (analyze, buffers) ${q.text}`, q.values);
      const lines = rows.map((r: Record<string, string>) => r['QUERY PLAN'] as string);
      const execution = lines.find((l) => l.startsWith('Execution Time')) ?? '';
      const buffers = lines.find((l) => l.trim().startsWith('Buffers:'))?.trim() ?? '';
      summary = `${execution}; top: ${lines[0]?.trim().slice(0, 90)}; ${buffers}`;
      plans.push(
        `-- query ${i + 1}, ${q.ms.toFixed(1)} ms in the app\n${q.text}\n-- values ${JSON.stringify(q.values)}\n${lines.join('\n')}\n`,
      );
    }
    if (q.ms >= 2 || i < 12)
      console.log(
        `   ${String(i + 1).padStart(2)}. ${q.ms.toFixed(1).padStart(7)} ms  ${oneLine(q.text).slice(0, 110)}\n       ${summary}`,
      );
  }
  await fs.writeFile(path.join(outDir, `${c.name}.txt`), plans.join('\n'));
}

async function main(): Promise<number> {
  const settings = readSettings();
  if (!settings.databaseUrl) {
    console.error(
      'Set BENCH_DATABASE_URL to the database of `npm run bench:generate` (see bench/README.md).',
    );
    return 2;
  }
  const reads = CASES.filter((c) => /^(home-view|request-view|find-|dashboard-|report-(?!csv))/.test(c.name));
  const selected = reads.filter((c) => !settings.only || settings.only.includes(c.name));
  const outDir = path.join(ROOT, '.tmp/explain');
  await fs.mkdir(outDir, { recursive: true });
  const { ctx, stopAll } = createContext(settings);
  const client = new pg.Client({ connectionString: settings.databaseUrl });
  await client.connect();
  try {
    for (const c of selected) await explainCase(c, ctx, client, outDir);
  } finally {
    await client.end();
    await stopAll();
  }
  console.log(`\nWhole plans: ${path.relative(process.cwd(), outDir)}/<case>.txt`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
