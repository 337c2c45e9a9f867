// `npm run bench:growth`: how the cost of each read grows with the data (issue 15). Grows one
// database through BENCH_GROWTH_SIZES requests (default 100,000, 1,000,000 and 3,000,000; each
// size continues from the previous one with `bench:generate`), and at each size runs the request
// view, the searches, the dashboard and the reports with `npm run bench` at one connection and at
// ten. Prints p95 per case, connections and size, and the growth from the first size to the last
// (target: no more than 2×); the table is also written to .tmp/growth.md for bench/README.md.
// The database is DATABASE_URL (or BENCH_DATABASE_URL), else an embedded PostgreSQL in
// BENCH_DATA_DIR (default: a folder in the temporary directory, kept for the next run).

import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.js';
import { CASES } from './cases/index.js';
import type { Row } from './lib/load.js';
import { ROOT } from './lib/servers.js';

// BENCH_ONLY narrows the cases (a comma-separated list of names), as it does for `npm run bench`.
const ONLY = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
const GROWTH_CASES = CASES.map((c) => c.name).filter(
  (n) => /^(request-view|find-|dashboard$|report-(?!csv))/.test(n) && (!ONLY || ONLY.includes(n)),
);
const CONNECTIONS = [1, 10];
const LIMIT = 2;

function sizes(): number[] {
  const raw = process.env.BENCH_GROWTH_SIZES ?? '100000,1000000,3000000';
  const list = raw.split(',').map((s) => Number(s.trim()));
  if (
    list.length < 2 ||
    list.some((n, i) => !Number.isInteger(n) || n < 1 || (i > 0 && n <= (list[i - 1] ?? 0)))
  ) {
    throw new Error(`BENCH_GROWTH_SIZES must be two or more growing whole numbers (got "${raw}")`);
  }
  return list;
}

function run(script: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', script)], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    child.on('error', reject);
    // The bench exits 1 when a case saw errors; its rows still say which, and the table shows them.
    child.on('exit', (code) =>
      code === 0 || code === 1 ? resolve() : reject(new Error(`${script} exited ${code}`)),
    );
  });
}

const ms = (n: number | undefined) => (n === undefined ? '—' : n.toFixed(0));

function table(all: number[], p95: Map<string, number | undefined>): string {
  const header = ['case', 'conn', ...all.map((n) => `p95 ms at ${n.toLocaleString('en')}`), 'growth'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => ' --- ').join('|')}|`];
  for (const name of GROWTH_CASES) {
    for (const conn of CONNECTIONS) {
      const values = all.map((n) => p95.get(`${name}@${conn}@${n}`));
      const first = values[0];
      const last = values[values.length - 1];
      const growth = first && last ? last / first : undefined;
      const verdict =
        growth === undefined ? '—' : `${growth.toFixed(2)}×${growth > LIMIT ? ' (over 2×)' : ''}`;
      lines.push(`| ${name} | ${conn} | ${values.map(ms).join(' | ')} | ${verdict} |`);
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const all = sizes();
  let url = process.env.DATABASE_URL || process.env.BENCH_DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  if (!url) {
    const dataDir = process.env.BENCH_DATA_DIR || path.join(os.tmpdir(), 'dossier-growth-data');
    const embedded = await startEmbeddedPostgres(dataDir, { info: console.log, warn: console.warn });
    url = embedded.url;
    stop = () => embedded.stop();
  }
  const outDir = path.join(ROOT, '.tmp');
  await fs.mkdir(outDir, { recursive: true });
  const p95 = new Map<string, number | undefined>();
  try {
    for (const size of all) {
      console.log(`\n=== ${size.toLocaleString('en')} requests`);
      await run('generate-requests.ts', { DATABASE_URL: url, BENCH_REQUESTS: String(size) });
      for (const conn of CONNECTIONS) {
        const json = path.join(outDir, `growth-${size}-${conn}.json`);
        await run('run.ts', {
          BENCH_DATABASE_URL: url,
          BENCH_CONNECTIONS: String(conn),
          BENCH_ONLY: GROWTH_CASES.join(','),
          BENCH_JSON: json,
        });
        const rows = JSON.parse(await fs.readFile(json, 'utf8')) as Row[];
        for (const r of rows) p95.set(`${r.name}@${conn}@${size}`, r.status === 'ok' ? r.p95 : undefined);
      }
    }
  } finally {
    await stop?.();
  }
  const text = table(all, p95);
  await fs.writeFile(path.join(outDir, 'growth.md'), `${text}\n`);
  console.log(`\n${text}\n\nAlso in .tmp/growth.md.`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
