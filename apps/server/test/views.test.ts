import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';

let t: TestContext;
let cookie: string;

function initialStateOf(html: string) {
  const match = /<script id="initial-state" type="application\/json">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error('no initial state in page');
  return JSON.parse(match[1]!); // the pattern's only group always takes part
}

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'alice', roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }] });
  await t.db
    .updateTable('users')
    .set({ name: '</script><script>alert(1)</script>' })
    .where('id', '=', 'alice')
    .execute();
  cookie = await signIn(t.app, 'alice');
});
afterAll(() => t.close());

describe('the view protocol', () => {
  it('answers a page as HTML with the initial state embedded', async () => {
    const res = await t.app.inject({ url: '/help', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<title>Help</title>');
    const state = initialStateOf(res.body);
    expect(state.view.$type).toBe('richTextPage');
    expect(state.user.id).toBe('alice');
    expect(state.user.permissions).toContain('request:submit');
    expect(state.locale).toBe('en-au');
    expect(state.features).toBeTypeOf('object');
  });

  it('escapes the state so no value can close the script element', async () => {
    const res = await t.app.inject({ url: '/help', headers: { cookie } });
    expect(res.body).not.toContain('</script><script>alert(1)');
    expect(initialStateOf(res.body).user.name).toBe('</script><script>alert(1)</script>');
  });

  it('answers the same path as a JSON view to the client', async () => {
    const res = await t.app.inject({ url: '/help', headers: { ...XHR, cookie } });
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toMatchObject({ $type: 'richTextPage', title: 'Help' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers the whole initial state when asked for it', async () => {
    const res = await t.app.inject({ url: '/help', headers: { ...XHR, 'x-initial-state': '1', cookie } });
    expect(res.json()).toMatchObject({
      user: { id: 'alice' },
      view: { $type: 'richTextPage' },
      locale: 'en-au',
    });
  });

  it('sends a browser without a session to the sign-in page and gives the client 401', async () => {
    const html = await t.app.inject({ url: '/?x=1' });
    expect(html.statusCode).toBe(303);
    expect(html.headers.location).toBe('/signin?return-url=%2F%3Fx%3D1');
    const json = await t.app.inject({ url: '/', headers: XHR });
    expect(json.statusCode).toBe(401);
    expect(json.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('shows Invalid URL with the path for an unknown page', async () => {
    const html = await t.app.inject({ url: '/no/such/page', headers: { cookie } });
    expect(html.statusCode).toBe(404);
    expect(initialStateOf(html.body).view).toEqual({
      $type: 'invalidUrl',
      title: 'Invalid URL',
      path: '/no/such/page',
    });
    const json = await t.app.inject({ url: '/no/such/page', headers: { ...XHR, cookie } });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toEqual({ message: 'Invalid URL: /no/such/page', code: 'invalidUrl' });
  });

  it('serves the sign-in page with the create-account link only when self-registration is on', async () => {
    const res = await t.app.inject({ url: '/signin', headers: XHR });
    expect(res.json()).toMatchObject({ $type: 'signin', canRegister: false, returnUrl: '/' });
    const other = await createTestContext({ selfRegistration: true });
    try {
      const open = await other.app.inject({ url: '/signin?return-url=%2Fhelp&err=bogus', headers: XHR });
      expect(open.json()).toMatchObject({ canRegister: true, returnUrl: '/help', err: 'Sign-in failed.' });
    } finally {
      await other.close();
    }
  });

  it('serves built assets', async () => {
    const res = await t.app.inject({ url: '/assets/app.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });
});

describe('bad input and refusals', () => {
  it('refuses a state-changing request without X-Requested-With', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/notifications/acknowledge',
      headers: { cookie, 'content-type': 'application/json' },
      payload: { all: true },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Missing X-Requested-With header.');
  });

  it('answers malformed JSON with 400 and an over-large body with 413', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/notifications/acknowledge',
      headers: { ...XHR, cookie, 'content-type': 'application/json' },
      payload: '{"all": tru',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBeDefined();
    const big = await t.app.inject({
      method: 'POST',
      url: '/notifications/acknowledge',
      headers: { ...XHR, cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ notificationIds: ['1'], pad: 'x'.repeat(t.config.bodyLimit) }),
    });
    expect(big.statusCode).toBe(413);
  });

  it('rejects prototype pollution in a body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/notifications/acknowledge',
      headers: { ...XHR, cookie, 'content-type': 'application/json' },
      payload: '{"all": true, "__proto__": {"x": 1}}',
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /healthz', () => {
  it('answers 200 while the database answers and 503 when it does not', async () => {
    const ctx = await createTestContext();
    expect((await ctx.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    await ctx.db.destroy();
    const down = await ctx.app.inject({ url: '/healthz' });
    expect(down.statusCode).toBe(503);
    await ctx.app.close();
    await ctx.live.close();
  });
});

describe('services', () => {
  it('serves only /healthz on an instance without the web service', async () => {
    const worker = await createTestContext({ services: ['jobs'] });
    try {
      expect((await worker.app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect((await worker.app.inject({ url: '/signin', headers: XHR })).statusCode).toBe(404);
    } finally {
      await worker.close();
    }
  });
});
