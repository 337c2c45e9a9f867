// The Dossier benchmark: `npm run bench`. Starts a bare Fastify baseline and a whole Dossier
// instance in this process, fires each case at them with autocannon, prints a table and exits
// non-zero when a case failed or saw errors / non-2xx answers. Settings: bench/README.md.

import { writeFile } from 'node:fs/promises';
import { CASES } from './cases/index.js';
import { createContext } from './lib/context.js';
import { measure, probe, type Row } from './lib/load.js';
import { printHeader, printTable } from './lib/report.js';
import { readSettings } from './lib/settings.js';
import type { BenchCase, BenchContext } from './lib/types.js';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function runCase(c: BenchCase, ctx: BenchContext, skipped: string | undefined): Promise<Row> {
  if (skipped) {
    console.log(`- ${c.name}: skipped, ${skipped}`);
    return { name: c.name, status: 'skipped', note: skipped };
  }
  const load = c.load?.(ctx.settings) ?? {
    connections: ctx.settings.connections,
    duration: ctx.settings.duration,
  };
  try {
    const target = await c.target(ctx);
    if ('skip' in target) {
      console.log(`- ${c.name}: skipped, ${target.skip}`);
      return { name: c.name, status: 'skipped', note: target.skip };
    }
    const failure = await probe(target);
    if (failure) {
      console.log(`- ${c.name}: FAILED, ${failure}`);
      return { name: c.name, status: 'failed', note: failure };
    }
    console.log(`- ${c.name}: ${c.description} (${load.connections} connections, ${load.duration}s)`);
    const row = c.run ? await c.run(ctx, target, load) : await measure(c.name, target, load, ctx.settings);
    console.log(`    ${row.rps?.toFixed(0)} req/s, p99 ${row.p99?.toFixed(1)} ms`);
    return row;
  } catch (error) {
    console.log(`- ${c.name}: FAILED, ${errorText(error)}`);
    return { name: c.name, status: 'failed', note: errorText(error) };
  }
}

async function main(): Promise<number> {
  let settings: ReturnType<typeof readSettings>;
  try {
    settings = readSettings();
  } catch (error) {
    console.error(errorText(error));
    return 2;
  }
  const names = CASES.map((c) => c.name);
  const unknown = settings.only?.filter((n) => !names.includes(n)) ?? [];
  if (unknown.length > 0) {
    console.error(
      `BENCH_ONLY names unknown case(s) ${unknown.join(', ')}; the cases are ${names.join(', ')}`,
    );
    return 2;
  }
  const selected = CASES.filter((c) => !settings.only || settings.only.includes(c.name));
  printHeader(
    settings,
    selected.map((c) => c.name),
  );

  const skips = new Map<string, string>();
  for (const c of selected) {
    const reason = await c.prepare?.(settings);
    if (reason) skips.set(c.name, reason);
  }

  const { ctx, stopAll } = createContext(settings);
  process.once('SIGINT', () => {
    console.error('\nInterrupted: stopping the servers and removing the temporary data…');
    void stopAll().finally(() => process.exit(130));
  });

  const rows: Row[] = [];
  try {
    for (const c of selected) rows.push(await runCase(c, ctx, skips.get(c.name)));
  } finally {
    await stopAll();
  }

  console.log('');
  printTable(rows);
  // bench:growth reads the rows of each run from here.
  if (process.env.BENCH_JSON) await writeFile(process.env.BENCH_JSON, JSON.stringify(rows));
  const broken = rows.filter((r) => r.status === 'failed' || (r.errors ?? 0) > 0 || (r.non2xx ?? 0) > 0);
  if (broken.length > 0) {
    console.log(`\nBroken case(s): ${broken.map((r) => r.name).join(', ')}`);
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
