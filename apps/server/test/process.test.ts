import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, spawnServer } from './support/processes.js';

// The real process, as `npm start` runs it: embedded PostgreSQL, SIGKILL and restart, SIGTERM.
// Only meaningful for the embedded database, so it is skipped in the run against an external one.
const external = process.env.TEST_DB === 'external';
const root = path.resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];

interface Started {
  child: ChildProcess;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function start(dataDir: string, env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const end = Date.now() + 60_000;
  while (Date.now() < end) {
    const match = /running on (http:\/\/localhost:\d+)/.exec(out);
    if (match) return { child, base: match[1]!, output: () => out, exited };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${out}`);
}

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dossier-proc-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
});

describe.skipIf(external)('the server process', () => {
  it('stops with one clear line on a bad setting', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr?.on('data', (d) => {
      err += d;
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(err.trim()).toBe('Invalid environment variable PORT: expected a whole number from 0 to 65535');
  });

  it('seeds once, survives SIGKILL with what it acknowledged, and stops cleanly on SIGTERM', async () => {
    const dataDir = await tempDir();
    const first = await start(dataDir, {
      SEED_DEMO: 'true',
      ADMIN_PASSWORD: 'Admin-Pass-2026!',
      DEMO_PASSWORD: 'Demo-Pass-2026!',
    });
    expect(first.output()).toMatch(/admin\s+\(ADMIN_PASSWORD\)/);
    expect(first.output()).not.toContain('Pass-2026!');
    expect(first.output()).toMatch(/submitter\s+\(DEMO_PASSWORD\)\s+c:roles:submitter@\/org\/acme\//);
    expect((await fetch(`${first.base}/healthz`)).status).toBe(200);
    // A sign-in is acknowledged once its answer arrives; the session must outlive a SIGKILL.
    const signin = await fetch(`${first.base}/signin`, {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=handler&password=Demo-Pass-2026!',
    });
    expect(signin.status).toBe(200);
    const cookie = (signin.headers.get('set-cookie') ?? '').split(';')[0];
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await start(dataDir, { SEED_DEMO: 'true' });
    expect(second.output()).toContain('still running');
    expect(second.output()).not.toContain('accounts were created');
    const view = await fetch(`${second.base}/help`, {
      headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(view.status).toBe(200);
    const active = await fetch(`${second.base}/notifications/active`, {
      headers: { cookie, 'x-requested-with': 'x' },
    });
    expect(active.status).toBe(200);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    await expect(fs.access(path.join(dataDir, 'postgres', 'postmaster.pid'))).rejects.toThrow();
  }, 120_000);

  it('logs one JSON line per request, with no password, cookie or token in the log', async () => {
    const dataDir = await tempDir();
    const password = 'Admin-Secret-Pass-2026!';
    const server = await start(dataDir, { SEED_DEMO: 'false', ADMIN_PASSWORD: password, LOG_LEVEL: 'info' });
    const signin = await fetch(`${server.base}/signin`, {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/x-www-form-urlencoded' },
      body: `username=admin&password=${encodeURIComponent(password)}`,
    });
    expect(signin.status).toBe(200);
    const cookie = (signin.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    await fetch(`${server.base}/help`, { headers: { cookie, 'x-requested-with': 'x' } });
    await fetch(`${server.base}/set-password?token=query-token-0123456789`);
    await fetch(`${server.base}/api/v1/requests/X`, {
      headers: { authorization: 'Bearer bearer-token-0123456789' },
    });
    server.child.kill('SIGTERM');
    await server.exited;

    const out = server.output();
    for (const secret of [
      password,
      cookie.split('=')[1] ?? cookie,
      'query-token-0123456789',
      'bearer-token-0123456789',
    ])
      expect(out).not.toContain(secret);
    const lines = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'request');
    const help = lines.find((l) => l.path === '/help');
    expect(help).toMatchObject({ method: 'GET', status: 200, user: 'admin' });
    expect(typeof help?.reqId).toBe('string');
    expect(typeof help?.ms).toBe('number');
    // One line per request: the sign-in, the page, the set-password page and the API call.
    expect(lines.filter((l) => l.path === '/help')).toHaveLength(1);
    expect(lines.find((l) => l.path === '/set-password')).toBeDefined();
  }, 120_000);

  // Supervisors (docker stop, Kubernetes, systemd) send SIGTERM to the process they started: with
  // `npm start` that is npm, which exits without passing the signal on.
  it('stops the server and its PostgreSQL when npm start is sent SIGTERM', async () => {
    const dataDir = await tempDir();
    const npm = spawn('npm', ['start'], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
        SEED_DEMO: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout?.on('data', (d) => {
      out += d;
    });
    npm.stderr?.on('data', (d) => {
      out += d;
    });
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    let base = '';
    const end = Date.now() + 90_000;
    while (!base && Date.now() < end && npm.exitCode === null) {
      base = /running on (http:\/\/localhost:\d+)/.exec(out)?.[1] ?? '';
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(base, out).not.toBe('');
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // npm start runs the app on the Node 24 the lockfile ships, whatever Node started npm.
    expect(out).toMatch(/running on http:\/\/localhost:\d+ \(Node\.js v24\./);
    const postgresPid = Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]);

    npm.kill('SIGTERM');
    const stopped = Date.now() + 30_000;
    let serverUp = true;
    let postgresUp = true;
    while ((serverUp || postgresUp) && Date.now() < stopped) {
      await new Promise((r) => setTimeout(r, 250));
      serverUp = await fetch(`${base}/healthz`).then(
        () => true,
        () => false,
      );
      postgresUp = isAlive(postgresPid);
    }
    expect(serverUp, out).toBe(false);
    expect(postgresUp, out).toBe(false);
    await expect(fs.access(pidFile)).rejects.toThrow();
  }, 150_000);
});

describe.skipIf(external)('a stop while starting', () => {
  it('is not ready while the demo is seeded, and a SIGTERM then stops everything it started', async () => {
    const dataDir = await tempDir();
    const port = await freePort();
    const server = spawnServer(port, { DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: 'true' });
    const { child, exited } = server;
    const base = `http://127.0.0.1:${port}`;
    // The moment /healthz first answers, the demo is still being seeded.
    const end = Date.now() + 90_000;
    let healthy = false;
    while (!healthy && Date.now() < end && child.exitCode === null) {
      healthy = await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (!healthy) await new Promise((r) => setTimeout(r, 25));
    }
    expect(healthy, server.output()).toBe(true);
    expect(server.output()).not.toMatch(/running on/);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'starting' });
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    const postgresPid = Number((await fs.readFile(pidFile, 'utf8')).split('\n')[0]);

    child.kill('SIGTERM');
    expect(await exited, server.output()).toBe(0);
    expect(isAlive(postgresPid), server.output()).toBe(false);
    await expect(fs.access(pidFile)).rejects.toThrow();
    expect(server.output()).not.toMatch(/running on/);
  }, 150_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
