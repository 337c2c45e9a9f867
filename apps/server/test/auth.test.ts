import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, PASSWORD, signIn, type TestContext, XHR } from './helpers.js';

let t: TestContext;
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const body = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'alice', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, { id: 'bob', roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }] });
  await createUser(t.db, { id: 'locky' });
  await createUser(t.db, { id: 'carol' });
});
afterAll(() => t.close());

describe('POST /signin', () => {
  it('answers the user as JSON to the client and sets a HttpOnly, SameSite=Lax session cookie', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...XHR, ...form },
      payload: body({ username: 'alice', password: PASSWORD }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: 'alice', roles: ['c:roles:handler@/'] });
    expect(res.json().user.permissions).toContain('request:handle');
    const cookie = res.cookies.find((c) => c.name === 'dossier_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  });

  it('gives the same message for an unknown user and a wrong password', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...XHR, ...form },
      payload: body({ username: 'alice', password: 'nope' }),
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...XHR, ...form },
      payload: body({ username: 'nobody', password: 'nope' }),
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid username and/or password.');
    expect(unknown.json().message).toBe(wrong.json().message);
  });

  it('redirects a plain form post to the return url, or back to /signin with err', async () => {
    const origin = { origin: 'http://localhost:80', host: 'localhost:80' };
    const ok = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...form, ...origin },
      payload: body({ username: 'alice', password: PASSWORD, 'return-url': '/help' }),
    });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/help');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...form, ...origin },
      payload: body({ username: 'alice', password: 'x', 'return-url': '/help' }),
    });
    expect(bad.statusCode).toBe(303);
    expect(bad.headers.location).toBe('/signin?err=invalid&return-url=%2Fhelp');
    const page = await t.app.inject({ url: bad.headers.location as string });
    expect(page.body).toContain('Invalid username and/or password.');
    // A code the page does not know, a name of every object's prototype among them, is a plain failure.
    for (const err of ['constructor', '__proto__', 'toString', 'nonsense']) {
      const other = await t.app.inject({
        url: `/signin?err=${err}`,
        headers: { 'x-requested-with': 'XMLHttpRequest' },
      });
      expect(other.statusCode, err).toBe(200);
      expect(other.json().err, err).toBe('Sign-in failed.');
    }
  });

  it('never redirects to another site', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...form, origin: 'http://localhost:80', host: 'localhost:80' },
      payload: body({ username: 'alice', password: PASSWORD, 'return-url': '//evil.example/x' }),
    });
    expect(res.headers.location).toBe('/');
  });

  it('refuses a plain form post from another origin', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...form, origin: 'https://evil.example', host: 'localhost:80' },
      payload: body({ username: 'alice', password: PASSWORD }),
    });
    expect(res.statusCode).toBe(403);
  });

  it('rejects a malformed body with field errors', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...XHR, ...form },
      payload: body({ username: 'alice' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty('password');
  });

  it('rotates the session id at sign-in: the old session ends', async () => {
    const first = await signIn(t.app, 'carol');
    const res = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...XHR, ...form, cookie: first },
      payload: body({ username: 'carol', password: PASSWORD }),
    });
    expect(res.statusCode).toBe(200);
    const old = await t.app.inject({ url: '/notifications/active', headers: { ...XHR, cookie: first } });
    expect(old.statusCode).toBe(401);
  });

  it('locks the account temporarily after repeated failures, even for the right password', async () => {
    for (let i = 0; i < t.config.signin.maxFailures; i++) {
      await t.app.inject({
        method: 'POST',
        url: '/signin',
        headers: { ...XHR, ...form, 'x-forwarded-for': '10.9.9.9' },
        payload: body({ username: 'locky', password: 'wrong' }),
      });
    }
    const user = await t.db
      .selectFrom('users')
      .select('locked_until')
      .where('id', '=', 'locky')
      .executeTakeFirstOrThrow();
    expect(user.locked_until?.getTime()).toBeGreaterThan(Date.now());
    const res = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...XHR, ...form },
      payload: body({ username: 'locky', password: PASSWORD }),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('locked');
  });

  it('refuses a disabled user', async () => {
    await createUser(t.db, { id: 'dave' });
    await t.db.updateTable('users').set({ disabled: true }).where('id', '=', 'dave').execute();
    await expect(signIn(t.app, 'dave')).rejects.toThrow(/401/);
  });
});

describe('per-address limit', () => {
  it('answers 429 with Retry-After once an address has failed too often', async () => {
    const ctx = await createTestContext({
      signin: {
        maxFailures: 100,
        lockMinutes: 1,
        ipLimitPerWindow: 3,
        passkeySignIn: false,
        rememberDevice: false,
      },
    });
    try {
      const attempt = () =>
        ctx.app.inject({
          method: 'POST',
          url: '/signin',
          headers: { ...XHR, ...form },
          payload: body({ username: 'someone', password: 'wrong' }),
        });
      for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
      const limited = await attempt();
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await ctx.close();
    }
  });
});

describe('sessions', () => {
  it('ends at sign-out', async () => {
    const cookie = await signIn(t.app, 'bob');
    const out = await t.app.inject({ method: 'POST', url: '/signout', headers: { ...XHR, cookie } });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ url: '/', headers: { ...XHR, cookie } });
    expect(after.statusCode).toBe(401);
  });

  it('answers a plain sign-out form with a redirect to the sign-in page', async () => {
    const cookie = await signIn(t.app, 'bob');
    const out = await t.app.inject({
      method: 'POST',
      url: '/signout',
      headers: { cookie, origin: 'http://localhost:80', host: 'localhost:80' },
    });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/signin');
  });

  it('expires after the idle time and after the absolute time', async () => {
    const idle = await signIn(t.app, 'bob');
    await t.db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(Date.now() - (t.config.session.idleMinutes + 1) * 60_000) })
      .where('user_id', '=', 'bob')
      .execute();
    expect((await t.app.inject({ url: '/', headers: { ...XHR, cookie: idle } })).statusCode).toBe(401);

    const absolute = await signIn(t.app, 'bob');
    await t.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', 'bob')
      .execute();
    expect((await t.app.inject({ url: '/', headers: { ...XHR, cookie: absolute } })).statusCode).toBe(401);
  });

  it('ignores a forged cookie', async () => {
    const res = await t.app.inject({ url: '/', headers: { ...XHR, cookie: 'dossier_session=forged' } });
    expect(res.statusCode).toBe(401);
  });
});
