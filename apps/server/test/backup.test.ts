import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { freePort, startInstance } from './support/processes.js';

// npm run backup / restore round trip on a populated demo instance: a backup taken while the app
// works restores into an empty data folder and runs; a backup of the stopped instance restores to
// the same rows in every table, the same sequences and the same files, byte for byte.
const external = process.env.TEST_DB === 'external';
const root = path.resolve(import.meta.dirname, '../../..');
const PASSWORD = 'Demo-Pass-2026!';
const dirs: string[] = [];

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dossier-backup-test-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true }).catch(() => undefined);
});

function cli(
  command: 'backup' | 'restore',
  file: string,
  dataDir: string,
): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/ops/cli.ts', command, file], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', FILES_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

/** Every table's row count and content hash, and every sequence, of the embedded database in a folder. */
async function fingerprint(dataDir: string): Promise<Record<string, string>> {
  const embedded = await startEmbeddedPostgres(dataDir, { info: () => undefined, warn: () => undefined });
  const client = new pg.Client({ connectionString: embedded.url });
  await client.connect();
  try {
    const result: Record<string, string> = {};
    const tables = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    );
    for (const { name } of tables.rows) {
      // The migrator's own rows say when each migration ran here; what matters is which ran.
      if (name === 'kysely_migration') {
        const ran = await client.query<{ names: string }>(
          `select string_agg(name, ',' order by name) as names from kysely_migration`,
        );
        result[name] = ran.rows[0]?.names ?? '';
        continue;
      }
      const row = await client.query<{ n: string; h: string }>(
        `select count(*) as n, md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as h from public.${pg.escapeIdentifier(name)} t`,
      );
      result[name] = `${row.rows[0]?.n} ${row.rows[0]?.h}`;
    }
    const seqs = await client.query<{ name: string; v: string }>(
      `select sequencename as name, coalesce(last_value::text, '-') as v from pg_sequences where schemaname = 'public'`,
    );
    for (const s of seqs.rows) result[`sequence ${s.name}`] = s.v;
    return result;
  } finally {
    await client.end();
    await embedded.stop();
  }
}

async function filesOf(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const base = path.join(dir, 'files');
  for (const e of await fs.readdir(base, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    out[path.relative(base, full)] = (await fs.readFile(full)).toString('base64');
  }
  return out;
}

describe.skipIf(external)('backup and restore', () => {
  it('round-trips a populated instance: every table, sequence and file', async () => {
    const source = await tempDir();
    const port = await freePort();
    const instance = await startInstance(port, {
      DATABASE_URL: '',
      DATA_DIR: source,
      SEED_DEMO: 'true',
      DEMO_PASSWORD: PASSWORD,
      ADMIN_PASSWORD: PASSWORD,
    });
    const live = path.join(await tempDir(), 'live.tar.gz');
    const whileRunning = await cli('backup', live, source);
    expect(whileRunning.code, whileRunning.out).toBe(0);
    expect(whileRunning.out).toMatch(/Backup written to .*: \d+ tables, \d+ rows, [1-9]\d* files/);
    instance.child.kill('SIGTERM');
    expect(await instance.exited).toBe(0);

    // The backup taken while the app worked brings up a working instance.
    const fromLive = await tempDir();
    const restored = await cli('restore', live, fromLive);
    expect(restored.code, restored.out).toBe(0);
    const again = await startInstance(port, { DATABASE_URL: '', DATA_DIR: fromLive, SEED_DEMO: 'true' });
    expect(again.output()).not.toContain('accounts were created');
    const signin = await fetch(`http://127.0.0.1:${port}/signin`, {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/x-www-form-urlencoded' },
      body: `username=handler&password=${encodeURIComponent(PASSWORD)}`,
    });
    expect(signin.status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);

    // A backup of the stopped instance restores to exactly what it holds.
    const stopped = path.join(await tempDir(), 'stopped.tar.gz');
    expect((await cli('backup', stopped, source)).code).toBe(0);
    const target = await tempDir();
    expect((await cli('restore', stopped, target)).code).toBe(0);
    expect(await fingerprint(target)).toEqual(await fingerprint(source));
    expect(await filesOf(target)).toEqual(await filesOf(source));

    // Restoring over data is refused.
    const refused = await cli('restore', stopped, target);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/not empty/);
  }, 300_000);
});
