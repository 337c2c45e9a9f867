import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { createDb, type Db } from '../src/db/database.js';
import { createNotification } from '../src/features/notifications/service.js';
import { LiveHub } from '../src/live/hub.js';
import { createTestDatabase, createUser, dropTestDatabase, signIn, XHR } from './helpers.js';

// The app talks to PostgreSQL through a TCP proxy the test can cut, as a database restart or a
// network outage would: requests then answer 503 with Retry-After, fast, never 500, and the app
// recovers by itself once the database answers again.

class CuttableProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(
    private readonly host: string,
    private readonly target: number,
  ) {}

  async up(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target, this.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

let url: string;
let proxy: CuttableProxy;
let close: () => Promise<void>;
let app: Awaited<ReturnType<typeof buildApp>>;
let appDb: Db;
let live: LiveHub;

beforeAll(async () => {
  url = await createTestDatabase();
  const direct = new URL(url);
  proxy = new CuttableProxy(direct.hostname, Number(direct.port));
  await proxy.up();
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  const { db } = createDb(proxied.toString(), 5);
  appDb = db;
  live = new LiveHub(proxied.toString(), { warn: () => undefined, error: () => undefined });
  await live.start();
  app = await buildApp({
    config: testConfig({ webDistDir: `${import.meta.dirname}/fixtures/web` }),
    db,
    live,
  });
  await app.ready();
  await createUser(db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  close = async () => {
    await app.close();
    await live.close();
    await db.destroy();
    await proxy.down().catch(() => undefined);
    await dropTestDatabase(url);
  };
});
afterAll(async () => close());

describe('a database outage', () => {
  it('answers 503 with Retry-After while the database is away, and recovers without a restart', async () => {
    const cookie = await signIn(app, 'handler');
    const page = () => app.inject({ method: 'GET', url: '/dashboard', headers: { ...XHR, cookie } });
    expect((await page()).statusCode).toBe(200);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const host = `127.0.0.1:${(app.server.address() as net.AddressInfo).port}`;
    const socket = new WebSocket(`ws://${host}/__ws`, { headers: { cookie, origin: `http://${host}` } });
    const messages: string[] = [];
    socket.on('message', (m) => messages.push(String(m)));
    await new Promise((resolve, reject) => {
      socket.on('open', resolve);
      socket.on('error', reject);
    });

    await proxy.down();
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const res = await page();
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({ code: 'unavailable' });
      expect(Date.now() - started).toBeLessThan(6_000);
    }
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(503);
    // Long enough for the live listener's first reconnect attempts to fail too.
    await new Promise((r) => setTimeout(r, 2_500));

    await proxy.up();
    const seen: number[] = [];
    const deadline = Date.now() + 5_000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      status = (await page()).statusCode;
      seen.push(status);
    }
    expect(status).toBe(200);
    expect(seen.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    // Live updates recover too: the socket stayed open, and a push made after the outage reaches it.
    const pushed = Date.now() + 15_000;
    while (!messages.some((m) => m.includes('after the outage')) && Date.now() < pushed) {
      await appDb.transaction().execute((trx) =>
        createNotification(trx, live, {
          userId: 'handler',
          type: 'mention',
          target: '/help',
          text: 'after the outage',
          createdBy: null,
        }),
      );
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(messages.some((m) => m.includes('after the outage'))).toBe(true);
    socket.close();
  }, 30_000);
});
