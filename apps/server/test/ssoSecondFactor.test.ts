import { sql } from 'kysely';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { seedScopes } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { startTestProvider, type TestProvider } from './support/oidcProvider.js';
import { browse, DOSSIER } from './support/ssoBrowse.js';

// Single sign-on and second factors (issue 35 item 3): the provider's second factor counts when its
// ID token says so (amr with mfa, otp, hwk or swk; or an acr the configuration lists); otherwise
// the local second factor applies: its code follows, or its enrolment where the roles require one.

let idp: TestProvider;
let t: TestContext;

beforeAll(async () => {
  idp = await startTestProvider({
    id: 'dossier',
    secret: 'dossier-secret',
    redirectUris: [`${DOSSIER}/sso/callback`],
  });
  t = await createTestContext({
    sso: {
      issuerUrl: idp.issuer,
      clientId: 'dossier',
      clientSecret: 'dossier-secret',
      passwordHandling: true,
      applications: [],
      allowHttp: true,
    },
  });
  await seedScopes(t.db);
  await createUser(t.db, { id: 'tara' });
  await createUser(t.db, { id: 'hal', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  for (const id of ['tara', 'hal'])
    await t.db
      .updateTable('users')
      .set({ external_user_id: `idp-${id}` })
      .where('id', '=', id)
      .execute();
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

const cookieValue = (res: { cookies: { name: string; value: string }[] }, name: string) =>
  res.cookies.find((c) => c.name === name)?.value;

describe('single sign-on and the local second factor', () => {
  it('asks for the local code when the token has no amr, and not when the provider had a second factor', async () => {
    // Tara holds a code generator here.
    const cookie = await signIn(t.app, 'tara');
    const begun = (
      await t.app.inject({
        method: 'POST',
        url: '/account/second-factors',
        headers: { ...XHR, cookie },
        payload: { kind: 'totp' },
      })
    ).json();
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(begun.secret) });
    await t.app.inject({
      method: 'POST',
      url: `/account/second-factors/${begun.id}/confirm`,
      headers: { ...XHR, cookie },
      payload: { name: 'Phone', code: totp.generate({ timestamp: Date.now() - 30_000 }) },
    });

    idp.setSubject('idp-tara');
    idp.setAmr(undefined);
    const plain = await browse(t.app, '/signin?sso=1&return-url=%2Fhelp');
    // No session: a page that moves on to the code (a redirect would lose the Strict cookie).
    expect(plain.cookie).toBe('');
    expect(plain.url.pathname).toBe('/sso/callback');
    expect(plain.res.statusCode).toBe(200);
    expect(plain.res.body).toContain('url=/signin?step=code&amp;return-url=%2Fhelp');
    const challenge = cookieValue(plain.res, 'dossier_signin_challenge');
    expect(challenge).toBeTruthy();
    const coded = await t.app.inject({
      method: 'POST',
      url: '/signin/second-factor',
      headers: { ...XHR, cookie: `dossier_signin_challenge=${challenge}` },
      payload: { code: totp.generate() },
    });
    expect(coded.json().user.id).toBe('tara');
    // The session carries the provider's session, so signing out signs out there too.
    const session = await t.db
      .selectFrom('sessions')
      .select(['sso_subject', 'sso_id_token', 'auth_method'])
      .where('user_id', '=', 'tara')
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({ sso_subject: 'idp-tara', auth_method: 'secondFactor' });
    expect(session.sso_id_token).toBeTruthy();

    idp.setAmr(['pwd', 'otp']);
    try {
      const strong = await browse(t.app, '/signin?sso=1&return-url=%2Fhelp');
      expect(strong.url.pathname).toBe('/help');
      expect(strong.cookie).toMatch(/^dossier_session=/);
    } finally {
      idp.setAmr(undefined);
    }
  });

  it('holds a user whose roles require a second factor to enrolment unless the provider had one', async () => {
    await sql`update configuration_entries set data = jsonb_set(data, '{secondFactorRoles}', '["c:roles:handler"]'::jsonb)
              where id = 'scopeRoot'`.execute(t.db);
    invalidateConfigurationCache(t.db);
    try {
      idp.setSubject('idp-hal');
      const held = await browse(t.app, '/signin?sso=1&return-url=%2Fhelp');
      expect(held.url.pathname).toBe('/account');
      const refused = await t.app.inject({ url: '/inbox', headers: { ...XHR, cookie: held.cookie } });
      expect(refused.json().code).toBe('secondFactorRequired');

      idp.setAmr(['hwk', 'user']);
      const strong = await browse(t.app, '/signin?sso=1&return-url=%2Fhelp');
      expect(strong.url.pathname).toBe('/help');
      const inbox = await t.app.inject({ url: '/inbox', headers: { ...XHR, cookie: strong.cookie } });
      expect(inbox.statusCode).toBe(200);
    } finally {
      idp.setAmr(undefined);
      await sql`update configuration_entries set data = data - 'secondFactorRoles' where id = 'scopeRoot'`.execute(
        t.db,
      );
      invalidateConfigurationCache(t.db);
    }
  });
});
