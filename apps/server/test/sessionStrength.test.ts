import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionIdOf } from '../src/features/auth/service.js';
import { createTestContext, createUser, PASSWORD, signIn, type TestContext, XHR } from './helpers.js';
import { SoftAuthenticator } from './support/softAuthenticator.js';

// Sessions and second factors (issue 35 item 6): a session records how it was authenticated, and
// enrolment and removal of a second factor end the user's other sessions (sign-in with a second
// factor and an administrator's reset are in secondFactor.test.ts).

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
  for (const id of ['sia', 'sol']) await createUser(t.db, { id });
});
afterAll(() => t.close());

const post = (url: string, cookie: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: { ...XHR, cookie }, ...(payload ? { payload } : {}) });
const alive = async (cookie: string) =>
  (await t.app.inject({ url: '/account', headers: { ...XHR, cookie } })).statusCode === 200;
const methodOf = async (cookie: string) =>
  (
    await t.db
      .selectFrom('sessions')
      .select('auth_method')
      .where('id', '=', sessionIdOf(cookie.split('=')[1] ?? ''))
      .executeTakeFirstOrThrow()
  ).auth_method;

async function passwordStep(user: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/signin',
    headers: { ...XHR, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: user, password: PASSWORD }).toString(),
  });
  return `dossier_signin_challenge=${res.cookies.find((c) => c.name === 'dossier_signin_challenge')?.value}`;
}

describe('session strength', () => {
  it('records password, password and code, and passkey; enrolment and removal end the other sessions', async () => {
    const first = await signIn(t.app, 'sia');
    const second = await signIn(t.app, 'sia');
    expect(await methodOf(first)).toBe('password');

    // Enrolling a code generator keeps the session that did it and ends the other.
    const begun = (await post('/account/second-factors', first, { kind: 'totp' })).json();
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(begun.secret) });
    const confirmed = await post(`/account/second-factors/${begun.id}/confirm`, first, {
      name: 'Phone',
      code: totp.generate({ timestamp: Date.now() - 30_000 }),
    });
    expect(confirmed.statusCode).toBe(200);
    expect(await alive(first)).toBe(true);
    expect(await alive(second)).toBe(false);

    // A password and a code.
    const challenge = await passwordStep('sia');
    const coded = await t.app.inject({
      method: 'POST',
      url: '/signin/second-factor',
      headers: { ...XHR, cookie: challenge },
      payload: { code: totp.generate() },
    });
    const strong = `dossier_session=${coded.cookies.find((c) => c.name === 'dossier_session')?.value}`;
    expect(await methodOf(strong)).toBe('secondFactor');

    // A passkey as the second step.
    const authenticator = new SoftAuthenticator();
    const options = (await post('/account/passkeys/options', strong)).json();
    const added = await post('/account/passkeys', strong, {
      name: 'Key',
      response: authenticator.register(options.challenge),
    });
    expect(added.json()).toEqual({ recoveryCodes: null });
    const passkeyChallenge = await passwordStep('sia');
    const request = (await post('/signin/passkey/options', passkeyChallenge)).json();
    const signedIn = await post('/signin/passkey', passkeyChallenge, {
      response: authenticator.authenticate(request.challenge),
    });
    const withPasskey = `dossier_session=${signedIn.cookies.find((c) => c.name === 'dossier_session')?.value}`;
    expect(await methodOf(withPasskey)).toBe('passkey');
    expect(await alive(strong)).toBe(false);

    // Removing one (not the last) ends the other sessions too.
    const other = await t.app.inject({
      method: 'POST',
      url: '/signin/second-factor',
      headers: { ...XHR, cookie: await passwordStep('sia') },
      payload: { code: totp.generate({ timestamp: Date.now() + 30_000 }) },
    });
    const otherCookie = `dossier_session=${other.cookies.find((c) => c.name === 'dossier_session')?.value}`;
    expect(await alive(otherCookie)).toBe(true);
    expect(await alive(withPasskey)).toBe(false);
    const list = (
      await t.app.inject({ url: '/account/second-factors', headers: { ...XHR, cookie: otherCookie } })
    ).json();
    const key = list.factors.find((f: { kind: string }) => f.kind === 'passkey');
    expect((await post(`/account/second-factors/${key.id}/remove`, otherCookie, {})).statusCode).toBe(200);
    expect(await alive(otherCookie)).toBe(true);
  });
});

describe('remember this device', () => {
  it('skips the second step for 30 days where the configuration offers it, until the factors are removed or reset', async () => {
    t.config.signin.rememberDevice = true;
    try {
      const cookie = await signIn(t.app, 'sol');
      const begun = (await post('/account/second-factors', cookie, { kind: 'totp' })).json();
      const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(begun.secret) });
      await post(`/account/second-factors/${begun.id}/confirm`, cookie, {
        name: 'Phone',
        code: totp.generate({ timestamp: Date.now() - 30_000 }),
      });
      const challenge = await passwordStep('sol');
      const page = await t.app.inject({ url: '/signin?step=code', headers: { ...XHR, cookie: challenge } });
      expect(page.json().rememberDevice).toBe(true);
      const coded = await t.app.inject({
        method: 'POST',
        url: '/signin/second-factor',
        headers: { ...XHR, cookie: challenge },
        payload: { code: totp.generate(), remember: '1' },
      });
      const device = coded.cookies.find((c) => c.name === 'dossier_device');
      expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/signin' });
      expect(device?.maxAge).toBe(30 * 24 * 3600);
      const signInWith = (extra: string) =>
        t.app.inject({
          method: 'POST',
          url: '/signin',
          headers: { ...XHR, 'content-type': 'application/x-www-form-urlencoded', cookie: extra },
          payload: new URLSearchParams({ username: 'sol', password: PASSWORD }).toString(),
        });
      // The remembered browser: the password alone, recorded as such.
      const remembered = await signInWith(`dossier_device=${device?.value}`);
      expect(remembered.json().user.id).toBe('sol');
      const session = `dossier_session=${remembered.cookies.find((c) => c.name === 'dossier_session')?.value}`;
      expect(await methodOf(session)).toBe('rememberedDevice');
      // Another browser still takes the second step.
      expect((await signInWith('')).json()).toEqual({ user: null, secondFactor: true, rememberDevice: true });
      // Off in the configuration: the device counts for nothing.
      t.config.signin.rememberDevice = false;
      expect((await signInWith(`dossier_device=${device?.value}`)).json().secondFactor).toBe(true);
      t.config.signin.rememberDevice = true;
      // Removing the last factor forgets every device.
      const list = (
        await t.app.inject({ url: '/account/second-factors', headers: { ...XHR, cookie: session } })
      ).json();
      const removed = await post(`/account/second-factors/${list.factors[0].id}/remove`, session, {
        password: PASSWORD,
        code: totp.generate({ timestamp: Date.now() + 30_000 }),
      });
      expect(removed.statusCode).toBe(200);
      const rows = await t.db
        .selectFrom('remembered_devices')
        .selectAll()
        .where('user_id', '=', 'sol')
        .execute();
      expect(rows).toHaveLength(0);
    } finally {
      t.config.signin.rememberDevice = false;
    }
  });
});
