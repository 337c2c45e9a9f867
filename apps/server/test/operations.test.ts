import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';

// What operators and load balancers use: /readyz, /metrics behind its token, and overload shedding.
const TOKEN = 'metrics-token-0123456789';
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({
    operations: { metricsToken: TOKEN, maxEventLoopDelayMs: 100, drainSeconds: 0 },
  });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
});
afterAll(async () => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('operations', () => {
  it('/readyz answers ready, and 503 while the instance drains', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
    t.app.draining = true;
    const draining = await t.app.inject({ method: 'GET', url: '/readyz' });
    t.app.draining = false;
    expect(draining.statusCode).toBe(503);
    expect(draining.json()).toEqual({ status: 'draining' });
    // Liveness is not readiness: a draining instance is still alive.
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('/metrics needs its bearer token and reports requests, the pool-independent backlog and sockets', async () => {
    const cookie = await signIn(t.app, 'handler');
    await t.app.inject({ method: 'GET', url: '/dashboard', headers: { ...XHR, cookie } });
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(403);
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(
      /dossier_http_request_duration_seconds_count\{method="GET",route="\/dashboard",status="2xx"\} 1/,
    );
    expect(res.body).toContain('dossier_mail_outbox_waiting 0');
    expect(res.body).toContain('dossier_live_sockets 0');
    expect(res.body).toContain('dossier_jobs_waiting');
    // The session cookie and the token never appear in what is exported.
    expect(res.body).not.toContain(TOKEN);
    expect(res.body).not.toContain(cookie.split('=')[1]);
  });

  it('sheds load with 503 and Retry-After while the event loop is overloaded, then recovers', async () => {
    // Keep the event loop busy well past the 100 ms limit, as a flood of work would: 250 ms blocks
    // with a request answered between them.
    let shed: Awaited<ReturnType<typeof t.app.inject>> | undefined;
    const deadline = Date.now() + 5_000;
    while (!shed && Date.now() < deadline) {
      const until = Date.now() + 250;
      while (Date.now() < until) {
        /* busy */
      }
      await sleep(1);
      const res = await t.app.inject({ method: 'GET', url: '/help', headers: XHR });
      if (res.statusCode === 503) shed = res;
    }
    expect(shed?.headers['retry-after']).toBe('10');
    expect(shed?.json()).toMatchObject({ code: 'overloaded' });
    let status = 503;
    const recovered = Date.now() + 5_000;
    while (status !== 200 && Date.now() < recovered) {
      await sleep(100);
      status = (await t.app.inject({ method: 'GET', url: '/help', headers: XHR })).statusCode;
    }
    expect(status).toBe(200);
  });
});
