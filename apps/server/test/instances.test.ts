import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestDatabase, dropTestDatabase } from './helpers.js';
import { type Balancer, freePort, type Instance, startHaproxy, startInstance } from './support/processes.js';

// Two server processes on one PostgreSQL and shared file storage, behind a real HAProxy, as the
// README tells operators to run them: they behave as one. Processes, so only in the embedded run.
const external = process.env.TEST_DB === 'external';
const PASSWORD = 'Admin-Pass-2026!';

let url: string;
let dir: string;
let ports: number[];
const instances: (Instance | undefined)[] = [];
let balancer: Balancer;

const env = () => ({
  DATABASE_URL: url,
  DATA_DIR: dir,
  FILES_DIR: path.join(dir, 'files'),
  SEED_DEMO: 'false',
  ADMIN_PASSWORD: PASSWORD,
  SHUTDOWN_DRAIN_SECONDS: '1',
});
const start = async (i: number) => {
  instances[i] = await startInstance(ports[i] ?? 0, env());
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/signin`, {
    method: 'POST',
    headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/x-www-form-urlencoded' },
    body: `username=admin&password=${encodeURIComponent(PASSWORD)}`,
  });
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/** Calls an authenticated view through the balancer from `workers` loops until stopped. */
function load(base: string, cookie: string, workers = 4) {
  const failures: string[] = [];
  let ok = 0;
  let running = true;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      try {
        const res = await fetch(`${base}/notifications/active`, {
          headers: { cookie, 'x-requested-with': 'x' },
        });
        await res.arrayBuffer();
        if (res.status === 200) ok++;
        else failures.push(String(res.status));
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
  });
  return {
    failures,
    ok: () => ok,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function waitUntil(check: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error('timed out');
}
const ready = (port: number) => () =>
  fetch(`http://127.0.0.1:${port}/readyz`).then(
    (r) => r.ok,
    () => false,
  );

beforeAll(async () => {
  if (external) return;
  url = await createTestDatabase();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dossier-instances-'));
  ports = [await freePort(), await freePort()];
  await start(0);
  await start(1);
  balancer = await startHaproxy(ports);
}, 120_000);

afterAll(async () => {
  if (external) return;
  await balancer?.stop();
  for (const i of instances) i?.child.kill('SIGKILL');
  await Promise.all(instances.map((i) => i?.exited));
  await dropTestDatabase(url).catch(() => undefined);
  await fs.rm(dir, { recursive: true, force: true });
});

describe.skipIf(external)('two instances behind HAProxy', () => {
  it('share sessions, and a push made on one reaches a socket held by the other', async () => {
    const [a, b] = ports.map((p) => `127.0.0.1:${p}`);
    const cookie = await signIn(`http://${a}`);
    const onB = await fetch(`http://${b}/notifications/active`, {
      headers: { cookie, 'x-requested-with': 'x' },
    });
    expect(onB.status).toBe(200);

    const ws = new WebSocket(`ws://${b}/__ws`, { headers: { cookie, origin: `http://${b}` } });
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('error', reject);
    });
    // Signing out on A ends the session everywhere: B closes the socket it holds.
    const out = await fetch(`http://${a}/signout`, {
      method: 'POST',
      headers: { cookie, 'x-requested-with': 'x' },
    });
    expect(out.status).toBe(200);
    const started = Date.now();
    await closed;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(
      (await fetch(`http://${b}/notifications/active`, { headers: { cookie, 'x-requested-with': 'x' } }))
        .status,
    ).toBe(401);
  });

  it('fails no more than the requests in flight when one instance is killed, and sockets reconnect', async () => {
    const base = `http://127.0.0.1:${balancer.port}`;
    const cookie = await signIn(base);
    const traffic = load(base, cookie);
    await sleep(1_500);
    instances[0]?.child.kill('SIGKILL');
    await instances[0]?.exited;
    await sleep(2_000);
    const before = traffic.failures.length;
    const okBefore = traffic.ok();
    await sleep(1_500);
    await traffic.stop();
    // At most one request in flight per worker can be lost with the killed instance; after that,
    // everything goes to the survivor.
    expect(traffic.failures.length, traffic.failures.join(', ')).toBeLessThanOrEqual(4);
    expect(traffic.failures.length).toBe(before);
    expect(traffic.ok()).toBeGreaterThan(okBefore);

    const started = Date.now();
    const ws = new WebSocket(`ws://127.0.0.1:${balancer.port}/__ws`, {
      headers: { cookie, origin: base },
    });
    await new Promise((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('error', reject);
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    ws.close();

    await start(0);
    await waitUntil(ready(ports[0] ?? 0), 10_000);
  }, 60_000);

  it('a rolling restart, one instance after the other with draining, fails no request', async () => {
    const base = `http://127.0.0.1:${balancer.port}`;
    const cookie = await signIn(base);
    // HAProxy must have both back in rotation before the restart begins.
    await sleep(1_500);
    const traffic = load(base, cookie);
    for (const i of [0, 1]) {
      await sleep(1_000);
      instances[i]?.child.kill('SIGTERM');
      expect(await instances[i]?.exited).toBe(0);
      await start(i);
      await waitUntil(ready(ports[i] ?? 0), 10_000);
      await sleep(1_000);
    }
    await sleep(1_000);
    await traffic.stop();
    expect(traffic.failures, traffic.failures.join(', ')).toEqual([]);
    expect(traffic.ok()).toBeGreaterThan(50);
  }, 90_000);
});
