import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/features/auth/index.js';
import { listMailTo } from '../src/mail/outbox.js';
import {
  createTestContext,
  createUser,
  PASSWORD,
  sessionCookieOf,
  type TestContext,
  XHR,
} from './helpers.js';

// Single sign-on with passwords off: the break-glass account alone signs in with a password (at
// /signin?local=1), recorded and mailed to the administrators; no provider is needed for it.

let t: TestContext;
const isSignedIn = async (cookie: string) =>
  (await t.app.inject({ url: '/sso/reauthenticated', headers: { ...XHR, cookie } })).statusCode === 200;

beforeAll(async () => {
  t = await createTestContext({
    sso: {
      // Nobody listens there: these tests never go to the provider.
      issuerUrl: 'http://127.0.0.1:9',
      clientId: 'dossier',
      clientSecret: 'dossier-secret',
      passwordHandling: false,
      applications: [],
      allowHttp: true,
      breakGlassUser: 'root',
    },
  });
  await createUser(t.db, { id: 'sally' });
  // The break-glass account: a local administrator of the whole service, and a second administrator.
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, { id: 'ada', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await t.db.updateTable('users').set({ external_user_id: 'idp-ada' }).where('id', '=', 'ada').execute();
  await t.db.updateTable('users').set({ external_user_id: 'sso-user-1' }).where('id', '=', 'sally').execute();
});
afterAll(() => t.close());

describe('passwords off, with the break-glass account', () => {
  const form = { ...XHR, 'content-type': 'application/x-www-form-urlencoded' };
  const signInWith = (username: string) =>
    t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: form,
      payload: new URLSearchParams({ username, password: PASSWORD }).toString(),
    });

  it('lets the break-glass account alone sign in with a password, recorded and mailed to administrators', async () => {
    expect((await signInWith('sally')).statusCode).toBe(403);
    expect((await signInWith('ada')).statusCode).toBe(403);
    const root = await signInWith('ROOT');
    expect(root.statusCode).toBe(200);
    expect(root.json()).toMatchObject({ user: { id: 'root' } });
    expect(await isSignedIn(sessionCookieOf(root))).toBe(true);
    const history = await t.db
      .selectFrom('events')
      .select(['type', 'actor'])
      .where('aggregate_id', '=', 'root')
      .where('type', '=', 'breakGlassSignIn')
      .execute();
    expect(history).toEqual([{ type: 'breakGlassSignIn', actor: 'root' }]);
    // Every administrator of the whole service hears of it (root and ada), nobody else.
    for (const to of ['root@test.example', 'ada@test.example']) {
      const [mail] = await listMailTo(t.db, to);
      expect(mail?.subject).toBe('Break-glass sign-in with a password: root');
    }
    expect(await listMailTo(t.db, 'sally@test.example')).toEqual([]);
    // A wrong password is refused as ever, and records nothing.
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: form,
      payload: 'username=root&password=wrong',
    });
    expect(wrong.statusCode).toBe(401);
    const count = await t.db
      .selectFrom('events')
      .select('id')
      .where('type', '=', 'breakGlassSignIn')
      .execute();
    expect(count).toHaveLength(1);
  });

  it('refuses the change-password step, which signs in too, to all but the break-glass account', async () => {
    await t.db
      .updateTable('users')
      .set({ password_must_change: true })
      .where('id', 'in', ['sally', 'root'])
      .execute();
    const change = (username: string) =>
      t.app.inject({
        method: 'POST',
        url: '/account/change-password',
        headers: { ...XHR, 'content-type': 'application/json' },
        payload: { username, password: PASSWORD, newPassword: 'Brand-New-Horse-42' },
      });
    const sally = await change('sally');
    expect(sally.statusCode).toBe(403);
    expect(sally.cookies.find((c) => c.name === 'dossier_session')).toBeUndefined();
    const root = await change('root');
    expect(root.statusCode).toBe(200);
    expect(await isSignedIn(sessionCookieOf(root))).toBe(true);
    const uses = await t.db
      .selectFrom('events')
      .select('id')
      .where('aggregate_id', '=', 'root')
      .where('type', '=', 'breakGlassSignIn')
      .execute();
    expect(uses).toHaveLength(2);
    // Back to the password the other tests sign in with.
    await t.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(PASSWORD), password_must_change: false })
      .where('id', 'in', ['sally', 'root'])
      .execute();
  });

  it('shows the password form only at /signin?local=1', async () => {
    const state = { ...XHR, 'x-initial-state': '1' };
    const plain = await t.app.inject({ url: '/signin', headers: state });
    expect(plain.json().view.breakGlass).toBeUndefined();
    const local = await t.app.inject({ url: '/signin?local=1', headers: state });
    expect(local.json().view.breakGlass).toBe(true);
  });

  it('mails a reset link to the break-glass account only', async () => {
    await t.db.deleteFrom('mail_outbox').execute();
    for (const email of ['sally@test.example', 'root@test.example']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/reset-password',
        headers: { ...XHR, 'content-type': 'application/json' },
        payload: { email },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ $type: 'passwordResetRequested', email });
    }
    expect(await listMailTo(t.db, 'sally@test.example')).toEqual([]);
    expect((await listMailTo(t.db, 'root@test.example')).map((m) => m.subject)).toEqual([
      'Reset your password',
    ]);
  });
});
