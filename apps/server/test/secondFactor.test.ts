import { sql } from 'kysely';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { listMailTo } from '../src/mail/outbox.js';
import { seedScopes } from './accountsHelpers.js';
import { createTestContext, createUser, PASSWORD, signIn, type TestContext, XHR } from './helpers.js';

// Second factors (issue 35): enrolment on the account page, the two-step sign-in, recovery codes.

let t: TestContext;
const MAX_FAILURES = 4;

beforeAll(async () => {
  t = await createTestContext({
    signin: { maxFailures: MAX_FAILURES, lockMinutes: 15, ipLimitPerWindow: 1000 },
  } as never);
  await seedScopes(t.db);
  for (const id of ['enid', 'rita', 'lotte', 'remy', 'ossie']) await createUser(t.db, { id });
  await createUser(t.db, {
    id: 'ada',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'acmeadmin',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:admin', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'globexadmin',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:admin', scope: '/org/globex/' }],
  });
});
afterAll(() => t.close());

const codeAt = (secret: string, ms: number) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: ms });

async function enrol(user: string) {
  const cookie = await signIn(t.app, user);
  const begun = await t.app.inject({
    method: 'POST',
    url: '/account/second-factors',
    headers: { ...XHR, cookie },
    payload: { kind: 'totp' },
  });
  expect(begun.statusCode).toBe(200);
  const { id, secret, uri, qr } = begun.json();
  expect(uri).toContain('otpauth://totp/');
  expect(qr).toMatch(/^data:image\/png;base64,/);
  const confirmed = await t.app.inject({
    method: 'POST',
    url: `/account/second-factors/${id}/confirm`,
    headers: { ...XHR, cookie },
    payload: { name: 'Phone', code: codeAt(secret, Date.now()) },
  });
  expect(confirmed.statusCode).toBe(200);
  return { cookie, id, secret, recoveryCodes: confirmed.json().recoveryCodes as string[] };
}

async function password(user: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/signin',
    headers: { ...XHR, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: user, password: PASSWORD }).toString(),
  });
  return res;
}

async function secondStep(challengeCookie: string, code: string) {
  return t.app.inject({
    method: 'POST',
    url: '/signin/second-factor',
    headers: { ...XHR, cookie: challengeCookie },
    payload: { code },
  });
}

function challengeOf(res: Awaited<ReturnType<typeof password>>): string {
  const cookie = res.cookies.find((c) => c.name === 'dossier_signin_challenge');
  if (!cookie) throw new Error('no challenge cookie');
  return `dossier_signin_challenge=${cookie.value}`;
}

describe('enrolling a code generator', () => {
  it('confirms it with a first code, lists it without its secret, and hands out ten recovery codes once', async () => {
    const { cookie, recoveryCodes, secret } = await enrol('enid');
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const list = await t.app.inject({ url: '/account/second-factors', headers: { ...XHR, cookie } });
    expect(list.json()).toMatchObject({ factors: [{ name: 'Phone', kind: 'totp' }], recoveryCodesLeft: 10 });
    expect(list.body).not.toContain(secret);
    // Stored encrypted, not as the secret itself.
    const row = await t.db
      .selectFrom('second_factors')
      .select('secret')
      .where('user_id', '=', 'enid')
      .executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(secret);
    const codes = await t.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', 'enid')
      .execute();
    expect(codes.map((c) => c.code_hash)).not.toContain(recoveryCodes[0]);
  });

  it('refuses a wrong first code and a missing name, per field', async () => {
    const cookie = await signIn(t.app, 'remy');
    const begun = await t.app.inject({
      method: 'POST',
      url: '/account/second-factors',
      headers: { ...XHR, cookie },
      payload: { kind: 'totp' },
    });
    const { id } = begun.json();
    const wrong = await t.app.inject({
      method: 'POST',
      url: `/account/second-factors/${id}/confirm`,
      headers: { ...XHR, cookie },
      payload: { name: 'Phone', code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ code: 'The code is not right.' });
    const noName = await t.app.inject({
      method: 'POST',
      url: `/account/second-factors/${id}/confirm`,
      headers: { ...XHR, cookie },
      payload: { name: ' ', code: '' },
    });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().fields).toMatchObject({ name: 'Name is required.', code: 'Code is required.' });
    const bad = await t.app.inject({
      method: 'POST',
      url: '/account/second-factors',
      headers: { ...XHR, cookie },
      payload: { kind: 'sms' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.kind).toBeTruthy();
  });
});

describe('signing in in two steps', () => {
  it('gives no session after the password, then a session after a code; the same code again is refused', async () => {
    const { secret, cookie: oldSession } = await enrol('rita');
    const first = await password('rita');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ user: null, secondFactor: true });
    expect(first.cookies.find((c) => c.name === 'dossier_session')).toBeUndefined();
    const challenge = challengeOf(first);
    // The challenge is no session.
    const meanwhile = await t.app.inject({
      url: '/account/second-factors',
      headers: { ...XHR, cookie: challenge },
    });
    expect(meanwhile.statusCode).toBe(401);
    // The next step's code: the enrolment used this step's.
    const code = codeAt(secret, Date.now() + 30_000);
    const second = await secondStep(challenge, code);
    expect(second.statusCode).toBe(200);
    expect(second.json().user).toMatchObject({ id: 'rita' });
    expect(second.cookies.find((c) => c.name === 'dossier_session')).toBeTruthy();
    // The other sessions ended.
    const old = await t.app.inject({
      url: '/account/second-factors',
      headers: { ...XHR, cookie: oldSession },
    });
    expect(old.statusCode).toBe(401);
    // A replayed code within its step is refused.
    const again = await secondStep(challengeOf(await password('rita')), code);
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('invalidCode');
  });

  it('takes a recovery code once', async () => {
    const { recoveryCodes } = await enrol('remy');
    const [code = ''] = recoveryCodes;
    const ok = await secondStep(challengeOf(await password('remy')), code.toUpperCase());
    expect(ok.statusCode).toBe(200);
    const again = await secondStep(challengeOf(await password('remy')), code);
    expect(again.statusCode).toBe(401);
    const cookie = `dossier_session=${ok.cookies.find((c) => c.name === 'dossier_session')?.value}`;
    const list = await t.app.inject({ url: '/account/second-factors', headers: { ...XHR, cookie } });
    expect(list.json().recoveryCodesLeft).toBe(9);
  });

  it('counts wrong codes toward the lockout like wrong passwords', async () => {
    await enrol('lotte');
    const challenge = challengeOf(await password('lotte'));
    for (let i = 0; i < MAX_FAILURES; i++) {
      const res = await secondStep(challenge, '000000');
      expect(res.statusCode).toBe(401);
    }
    const user = await t.db
      .selectFrom('users')
      .select('locked_until')
      .where('id', '=', 'lotte')
      .executeTakeFirstOrThrow();
    expect(user.locked_until?.getTime()).toBeGreaterThan(Date.now());
    const locked = await password('lotte');
    expect(locked.json().code).toBe('locked');
  });

  it('answers without a challenge that the sign-in has expired', async () => {
    const res = await secondStep('', '123456');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('expired');
  });
});

describe('removing a second factor', () => {
  it('needs the current password and a code for the last one', async () => {
    const { cookie, id, secret } = await enrol('ossie');
    const bare = await t.app.inject({
      method: 'POST',
      url: `/account/second-factors/${id}/remove`,
      headers: { ...XHR, cookie },
      payload: {},
    });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().fields).toEqual({ password: 'Password is required.', code: 'Code is required.' });
    const done = await t.app.inject({
      method: 'POST',
      url: `/account/second-factors/${id}/remove`,
      headers: { ...XHR, cookie },
      payload: { password: PASSWORD, code: codeAt(secret, Date.now() + 30_000) },
    });
    expect(done.statusCode).toBe(200);
    const plain = await password('ossie');
    expect(plain.json().user).toMatchObject({ id: 'ossie' });
  });
});

describe("an administrator resetting a user's second factors", () => {
  it("shows the kind, never the secret; another organisation's administrator may not reset", async () => {
    const { secret, cookie: userSession } = await enrol('ada');
    const admin = await signIn(t.app, 'acmeadmin');
    const page = await t.app.inject({ url: '/admin/users/edit/ada', headers: { ...XHR, cookie: admin } });
    expect(page.json().secondFactors).toEqual(['totp']);
    expect(page.body).not.toContain(secret);
    const other = await signIn(t.app, 'globexadmin');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/admin/users/edit/ada/second-factors/reset',
      headers: { ...XHR, cookie: other },
    });
    expect([403, 404]).toContain(refused.statusCode);
    expect(
      await t.db.selectFrom('second_factors').select('id').where('user_id', '=', 'ada').execute(),
    ).toHaveLength(1);

    const reset = await t.app.inject({
      method: 'POST',
      url: '/admin/users/edit/ada/second-factors/reset',
      headers: { ...XHR, cookie: admin },
    });
    expect(reset.statusCode).toBe(200);
    // The factors are gone, the user's sessions ended, the history and a mail tell of it.
    expect(
      await t.db.selectFrom('second_factors').select('id').where('user_id', '=', 'ada').execute(),
    ).toHaveLength(0);
    const old = await t.app.inject({
      url: '/account/second-factors',
      headers: { ...XHR, cookie: userSession },
    });
    expect(old.statusCode).toBe(401);
    const after = await t.app.inject({ url: '/admin/users/edit/ada', headers: { ...XHR, cookie: admin } });
    expect(after.json().secondFactors).toEqual([]);
    expect(JSON.stringify(after.json().history)).toContain('secondFactorsReset');
    const mails = await listMailTo(t.db, 'ada@test.example');
    expect(mails.map((m) => m.subject)).toContain('Your second factors were reset');
    // The password alone signs in again.
    expect((await password('ada')).json().user).toMatchObject({ id: 'ada' });
  });
});

describe('a second factor required by the configuration', () => {
  it('holds a handler of acme to the enrolment until done, inherited from the root entry', async () => {
    await createUser(t.db, {
      id: 'hana',
      scope: '/org/acme/',
      roles: [{ role: 'c:roles:handler', scope: '/org/acme/' }],
    });
    // The root's scope entry names the handlers; acme's own entry names nothing and cannot lift it.
    await sql`update configuration_entries set data = jsonb_set(data, '{secondFactorRoles}', '["c:roles:handler"]'::jsonb)
              where configuration_id = (select id from configurations where scope_path = '/') and id = 'scopeRoot'`.execute(
      t.db,
    );
    invalidateConfigurationCache(t.db);
    try {
      const signedIn = await password('hana');
      expect(signedIn.json()).toMatchObject({ user: { id: 'hana' }, mustEnrol: true });
      const cookie = `dossier_session=${signedIn.cookies.find((c) => c.name === 'dossier_session')?.value}`;
      // Everything but the enrolment is refused; a page is sent to the account page.
      const tasks = await t.app.inject({ url: '/admin/users', headers: { ...XHR, cookie } });
      expect(tasks.statusCode).toBe(403);
      expect(tasks.json().code).toBe('secondFactorRequired');
      const page = await t.app.inject({ url: '/', headers: { cookie } });
      expect(page.statusCode).toBe(303);
      expect(page.headers.location).toBe('/account');
      const account = await t.app.inject({ url: '/account', headers: { ...XHR, cookie } });
      expect(account.statusCode).toBe(200);
      // A plain form sign-in goes to the account page, not to its return address.
      const form = await t.app.inject({
        method: 'POST',
        url: '/signin',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'http://localhost:80',
          host: 'localhost:80',
        },
        payload: new URLSearchParams({
          username: 'hana',
          password: PASSWORD,
          'return-url': '/help',
        }).toString(),
      });
      expect(form.headers.location).toBe('/account');
      const formCookie = `dossier_session=${form.cookies.find((c) => c.name === 'dossier_session')?.value}`;

      const home = await t.app.inject({ url: '/', headers: { ...XHR, cookie: formCookie } });
      expect(home.statusCode).toBe(403);
      const begun = await t.app.inject({
        method: 'POST',
        url: '/account/second-factors',
        headers: { ...XHR, cookie: formCookie },
        payload: { kind: 'totp' },
      });
      const { id, secret } = begun.json();
      const confirmed = await t.app.inject({
        method: 'POST',
        url: `/account/second-factors/${id}/confirm`,
        headers: { ...XHR, cookie: formCookie },
        payload: { name: 'Phone', code: codeAt(secret, Date.now()) },
      });
      expect(confirmed.statusCode).toBe(200);
      const after = await t.app.inject({ url: '/', headers: { ...XHR, cookie: formCookie } });
      expect(after.statusCode).toBe(200);
      // Once enrolled, the sign-in asks for the code.
      expect((await password('hana')).json()).toEqual({ user: null, secondFactor: true });
      // A user whose roles are not named is not held.
      expect((await password('enid')).json().mustEnrol).toBeUndefined();
    } finally {
      await sql`update configuration_entries set data = data - 'secondFactorRoles' where id = 'scopeRoot'`.execute(
        t.db,
      );
      invalidateConfigurationCache(t.db);
    }
  });
});
