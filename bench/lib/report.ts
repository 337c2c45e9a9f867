import { createRequire } from 'node:module';
import os from 'node:os';
import type { Row } from './load.js';
import type { Settings } from './settings.js';

const require = createRequire(import.meta.url);

export function printHeader(settings: Settings, cases: string[]): void {
  const cpus = os.cpus();
  const autocannonVersion = (require('autocannon/package.json') as { version: string }).version;
  const database = settings.databaseUrl
    ? `BENCH_DATABASE_URL (${new URL(settings.databaseUrl).host})`
    : 'embedded PostgreSQL in a temporary folder';
  console.log(
    [
      'Dossier benchmark',
      `  machine   ${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, ${os.platform()} ${os.arch()} ${os.release()}`,
      `  runtime   node ${process.version}, autocannon ${autocannonVersion}`,
      `  database  ${database}`,
      `  load      ${settings.duration}s × ${settings.connections} connections (sign-in: ${settings.signinDuration}s × ${settings.signinConnections}), warm-up ${settings.warmup}s, ${settings.workers > 0 ? `${settings.workers} worker thread(s)` : 'load generated on the main thread'}`,
      `  cases     ${cases.join(', ')}`,
      '',
    ].join('\n'),
  );
}

const fixed = (n: number | undefined, digits: number) => (n === undefined ? '-' : n.toFixed(digits));

export function printTable(rows: Row[]): void {
  const bare = rows.find((r) => r.name === 'bare' && r.status === 'ok')?.rps;
  const header = ['case', 'conn×s', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors/non-2xx', '× bare'];
  const body = rows.map((r) => {
    if (r.status !== 'ok') return [r.name, '-', r.status.toUpperCase(), '-', '-', '-', '-', '-'];
    return [
      r.name,
      `${r.connections}×${r.duration}`,
      fixed(r.rps, 0),
      fixed(r.p50, 1),
      fixed(r.p95, 1),
      fixed(r.p99, 1),
      `${r.errors}/${r.non2xx}`,
      bare && r.rps !== undefined ? fixed(r.rps / bare, 3) : '-',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((line) => line[i]?.length ?? 0)));
  // The case name reads left-aligned, numbers right-aligned.
  const format = (line: string[]) =>
    line.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  console.log(format(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of body) console.log(format(line));
  const notes = rows.filter((r) => r.note).map((r) => `  ${r.name}: ${r.note}`);
  if (notes.length > 0) console.log(['', 'Notes:', ...notes].join('\n'));
  if (bare === undefined) console.log('\n(× bare needs the case "bare" in the run.)');
}
