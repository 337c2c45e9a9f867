import { sql } from 'kysely';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { issueSetPasswordLink } from '../src/features/passwordReset/index.js';
import { seedScopes } from './accountsHelpers.js';
import { createTestContext, createUser, PASSWORD, signIn, type TestContext, XHR } from './helpers.js';
import { SoftAuthenticator } from './support/softAuthenticator.js';

// Issue 35, the other ways into a session: the change-password step and the activation page take
// the sign-in page's steps (a code after the password, or the enrolment a role requires), a passkey
// as the second step remembers the browser as a code does.

let t: TestContext;
const NEW_PASSWORD = 'Quite-New-Pass-2026!';

beforeAll(async () => {
  t = await createTestContext({
    signin: {
      maxFailures: 10,
      lockMinutes: 15,
      ipLimitPerWindow: 1000,
      passkeySignIn: false,
      rememberDevice: true,
    },
  });
  await seedScopes(t.db);
  for (const id of ['cora', 'pim']) await createUser(t.db, { id });
  for (const id of ['newadmin', 'freshadmin'])
    await createUser(t.db, {
      id,
      scope: '/org/acme/',
      roles: [{ role: 'c:roles:admin', scope: '/org/acme/' }],
    });
});
afterAll(() => t.close());

const codeAt = (secret: string, ms: number) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: ms });

const post = (url: string, payload: object | undefined, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...XHR, ...(cookie ? { cookie } : {}) },
    ...(payload ? { payload } : {}),
  });

const cookieOf = (res: { cookies: { name: string; value: string }[] }, name: string) => {
  const found = res.cookies.find((c) => c.name === name && c.value !== '');
  return found ? `${name}=${found.value}` : undefined;
};

async function mustChange(user: string) {
  await t.db.updateTable('users').set({ password_must_change: true }).where('id', '=', user).execute();
}

async function requireForAdministrators<T>(run: () => Promise<T>): Promise<T> {
  await sql`update configuration_entries set data = jsonb_set(data, '{secondFactorRoles}', '["c:roles:admin"]'::jsonb)
            where configuration_id = (select id from configurations where scope_path = '/') and id = 'scopeRoot'`.execute(
    t.db,
  );
  invalidateConfigurationCache(t.db);
  try {
    return await run();
  } finally {
    await sql`update configuration_entries set data = data - 'secondFactorRoles' where id = 'scopeRoot'`.execute(
      t.db,
    );
    invalidateConfigurationCache(t.db);
  }
}

describe('the change-password step', () => {
  it('asks a user with a second factor for the code before any session', async () => {
    const cookie = await signIn(t.app, 'cora');
    const { id, secret } = (await post('/account/second-factors', { kind: 'totp' }, cookie)).json();
    const enrolled = await post(
      `/account/second-factors/${id}/confirm`,
      { name: 'Phone', code: codeAt(secret, Date.now()) },
      cookie,
    );
    expect(enrolled.statusCode).toBe(200);
    await mustChange('cora');

    const changed = await post('/account/change-password', {
      username: 'cora',
      password: PASSWORD,
      newPassword: NEW_PASSWORD,
      returnUrl: '/help',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    // No session: the sign-in page's second step, with the challenge it waits on.
    expect(changed.json()).toEqual({ ok: true, returnUrl: '/signin?step=code&return-url=%2Fhelp' });
    expect(cookieOf(changed, 'dossier_session')).toBeUndefined();
    const challenge = cookieOf(changed, 'dossier_signin_challenge');
    expect(challenge).toBeDefined();
    // A wrong code starts nothing; the next step's code does (the enrolment took this one).
    expect((await post('/signin/second-factor', { code: '000000' }, challenge)).statusCode).toBe(401);
    const done = await post(
      '/signin/second-factor',
      { code: codeAt(secret, Date.now() + 30_000) },
      challenge,
    );
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().user.id).toBe('cora');
    // The password was changed all the same, and the flag is gone.
    const row = await t.db
      .selectFrom('users')
      .select('password_must_change')
      .where('id', '=', 'cora')
      .executeTakeFirst();
    expect(row?.password_must_change).toBe(false);
  });

  it('takes a user whose role requires a second factor to the enrolment, and nowhere else', async () => {
    await mustChange('newadmin');
    await requireForAdministrators(async () => {
      const changed = await post('/account/change-password', {
        username: 'newadmin',
        password: PASSWORD,
        newPassword: NEW_PASSWORD,
        returnUrl: '/admin/users',
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toEqual({ ok: true, returnUrl: '/account' });
      const session = cookieOf(changed, 'dossier_session');
      const users = await t.app.inject({ url: '/admin/users', headers: { ...XHR, cookie: session } });
      expect(users.statusCode).toBe(403);
      expect(users.json().code).toBe('secondFactorRequired');
      const enrolment = await post('/account/second-factors', { kind: 'totp' }, session);
      expect(enrolment.statusCode).toBe(200);
    });
  });
});

describe('the activation page', () => {
  it('starts no session: the sign-in after it takes the steps the role requires', async () => {
    const link = await issueSetPasswordLink(t.db, {
      userId: 'freshadmin',
      validForMs: 3_600_000,
      ip: null,
      baseUrl: 'http://localhost',
    });
    const token = new URL(link).searchParams.get('token') ?? '';
    await requireForAdministrators(async () => {
      const set = await post('/set-password', { token, password: NEW_PASSWORD });
      expect(set.statusCode, set.body).toBe(200);
      expect(cookieOf(set, 'dossier_session')).toBeUndefined();
      const signedIn = await t.app.inject({
        method: 'POST',
        url: '/signin',
        headers: XHR,
        payload: { username: 'freshadmin', password: NEW_PASSWORD },
      });
      expect(signedIn.json()).toMatchObject({ user: { id: 'freshadmin' }, mustEnrol: true });
    });
  });
});

describe('remember this device, after a passkey', () => {
  it('remembers the browser when the box is ticked, so the next password sign-in skips the second step', async () => {
    const cookie = await signIn(t.app, 'pim');
    const options = await post('/account/passkeys/options', undefined, cookie);
    const authenticator = new SoftAuthenticator();
    const added = await post(
      '/account/passkeys',
      { name: 'Laptop', response: authenticator.register(options.json().challenge) },
      cookie,
    );
    expect(added.statusCode).toBe(200);

    const passwordStep = async (device?: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/signin',
        headers: { ...XHR, ...(device ? { cookie: device } : {}) },
        payload: { username: 'pim', password: PASSWORD },
      });
      return res;
    };
    const passkeyStep = async (remember: boolean) => {
      const challenge = cookieOf(await passwordStep(), 'dossier_signin_challenge');
      const begun = await post('/signin/passkey/options', undefined, challenge);
      return post(
        '/signin/passkey',
        {
          response: authenticator.authenticate(begun.json().challenge),
          ...(remember ? { remember: '1' } : {}),
        },
        challenge,
      );
    };
    // Unticked: no device.
    const plain = await passkeyStep(false);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(cookieOf(plain, 'dossier_device')).toBeUndefined();
    // Ticked: the device cookie, and the next password sign-in is a session at once.
    const ticked = await passkeyStep(true);
    expect(ticked.statusCode, ticked.body).toBe(200);
    const device = cookieOf(ticked, 'dossier_device');
    expect(device).toBeDefined();
    const again = await passwordStep(device);
    expect(again.json()).toMatchObject({ user: { id: 'pim' } });
    expect(cookieOf(again, 'dossier_session')).toBeDefined();
    // Offered only where the configuration offers it.
    t.config.signin.rememberDevice = false;
    try {
      expect(cookieOf(await passkeyStep(true), 'dossier_device')).toBeUndefined();
    } finally {
      t.config.signin.rememberDevice = true;
    }
  });
});
