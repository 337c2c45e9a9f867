import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { SSO_ERROR_TEXT } from '../src/features/sso/routes.js';
import { createTestContext, createUser, type TestContext, XHR } from './helpers.js';
import { startTestProvider, type TestProvider } from './support/oidcProvider.js';
import { configureScope } from './support/workflow.js';

// Single sign-on against a real OpenID Connect provider: the whole authorization code flow with
// PKCE, state and nonce, users matched by their external id.

let idp: TestProvider;
let t: TestContext;
const DOSSIER = 'http://localhost';

/** Follows redirects like a browser: Dossier through inject, the provider over HTTP with its cookies. */
async function browse(app: FastifyInstance, start: string, cookie = '') {
  const jar = new Map<string, string>();
  let url = new URL(start, DOSSIER);
  for (let hop = 0; hop < 20; hop++) {
    if (url.origin === DOSSIER) {
      const res = await app.inject({ url: url.pathname + url.search, headers: cookie ? { cookie } : {} });
      const session = res.cookies.find((c) => c.name === 'dossier_session');
      if (session) cookie = `dossier_session=${session.value}`;
      if (res.statusCode !== 303 || !res.headers.location) return { res, cookie, url };
      url = new URL(res.headers.location, url);
      continue;
    }
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair.split('=');
      jar.set(name, value.join('='));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`provider stopped at ${url} with ${res.status}: ${await res.text()}`);
    url = new URL(location, url);
  }
  throw new Error('too many redirects');
}

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
      passwordHandling: false,
      applications: [{ name: 'Records', icon: 'records.svg', url: 'https://records.example/' }],
      allowHttp: true,
    },
  });
  await createUser(t.db, { id: 'sally' });
  await t.db.updateTable('users').set({ external_user_id: 'sso-user-1' }).where('id', '=', 'sally').execute();
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

describe('single sign-on', () => {
  it('signs a user in through the provider and returns to the page asked for', async () => {
    idp.setSubject('sso-user-1');
    const { res, cookie, url } = await browse(t.app, '/signin?sso=1&return-url=%2Fhelp');
    expect(url.pathname).toBe('/help');
    expect(res.statusCode).toBe(200);
    const view = await t.app.inject({ url: '/sso/reauthenticated', headers: { ...XHR, cookie } });
    expect(view.json()).toMatchObject({ $type: 'ssoReauthenticated', user: { id: 'sally' } });
  });

  it('shows the specification text and the reason when no user has that external id', async () => {
    idp.setSubject('stranger');
    const { res } = await browse(t.app, '/signin?sso=1');
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain(SSO_ERROR_TEXT);
    expect(res.body).toContain('No active user is linked to the external id stranger.');
  });

  it('refuses a callback with an unknown or reused state', async () => {
    const res = await t.app.inject({ url: '/sso/callback?code=abc&state=forged', headers: XHR });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      $type: 'ssoError',
      message: 'The sign-in has expired or was already used. Please try again.',
    });
  });

  it('offers SSO to the page and refuses passwords when password handling is off', async () => {
    const page = await t.app.inject({ url: '/signin', headers: { ...XHR, 'x-initial-state': '1' } });
    expect(page.json().features.singleSignOn).toEqual({
      applications: [{ name: 'Records', icon: 'records.svg' }],
      enablePasswordHandling: false,
    });
    const password = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...XHR, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=sally&password=Correct-Horse-9',
    });
    expect(password.statusCode).toBe(403);
  });

  it('opens a configured application for a signed-in user only', async () => {
    idp.setSubject('sso-user-1');
    const { cookie } = await browse(t.app, '/signin?sso=1');
    const open = await t.app.inject({ url: '/sso/applications/0', headers: { cookie } });
    expect(open.statusCode).toBe(303);
    expect(open.headers.location).toBe('https://records.example/');
    expect((await t.app.inject({ url: '/sso/applications/5', headers: { ...XHR, cookie } })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ url: '/sso/applications/0', headers: XHR })).statusCode).toBe(401);
  });

  describe('linking at the first sign-in by verified email', () => {
    beforeAll(async () => {
      // Acme allows it; Globex does not (its scope entry leaves it off).
      await configureScope(t.db, '/org/acme/', [
        {
          id: 'scopeAcme',
          type: 'scopeEntry',
          data: { scopePath: '/org/acme/', linkSsoByVerifiedEmail: true },
        },
      ]);
      await configureScope(t.db, '/org/globex/', [
        { id: 'scopeGlobex', type: 'scopeEntry', data: { scopePath: '/org/globex/' } },
      ]);
      // The configuration is cached by earlier sign-ins; the new scope entries count from now.
      invalidateConfigurationCache(t.db);
      await createUser(t.db, { id: 'amy', scope: '/org/acme/' });
      await createUser(t.db, { id: 'gil', scope: '/org/globex/' });
      await createUser(t.db, { id: 'lin', scope: '/org/acme/' });
      await t.db
        .updateTable('users')
        .set({ external_user_id: 'other-idp-account' })
        .where('id', '=', 'lin')
        .execute();
    });
    afterAll(() => idp.setEmail(undefined, false));

    const linkOf = (id: string) =>
      t.db
        .selectFrom('users')
        .select(['external_user_id', 'external_id_set_by'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    it('links the user of a scope that allows it, on the email the provider verified, and records it', async () => {
      idp.setSubject('idp-amy');
      idp.setEmail('AMY@test.example', true);
      const { res, cookie } = await browse(t.app, '/signin?sso=1&return-url=%2Fhelp');
      expect(res.statusCode).toBe(200);
      const view = await t.app.inject({ url: '/sso/reauthenticated', headers: { ...XHR, cookie } });
      expect(view.json()).toMatchObject({ user: { id: 'amy' } });
      expect(await linkOf('amy')).toEqual({
        external_user_id: 'idp-amy',
        external_id_set_by: 'sso:verifiedEmail',
      });
      const events = await t.db
        .selectFrom('events')
        .select(['type', 'payload'])
        .where('aggregate_id', '=', 'amy')
        .where('type', '=', 'ssoLinked')
        .execute();
      expect(events).toHaveLength(1);
      // The next sign-in finds the user by the subject alone.
      idp.setEmail('someone.else@test.example', false);
      expect((await browse(t.app, '/signin?sso=1&return-url=%2Fhelp')).res.statusCode).toBe(200);
    });

    it.each([
      ['an email the provider does not vouch for', 'idp-amy-2', 'gil@test.example', false],
      ['a scope that leaves linking off', 'idp-gil', 'gil@test.example', true],
      ['a user already linked to another account', 'idp-lin', 'lin@test.example', true],
      ['an email no user has', 'idp-nobody', 'nobody@test.example', true],
    ])('refuses %s and links nothing', async (_case, subject, email, verified) => {
      idp.setSubject(subject);
      idp.setEmail(email, verified);
      const { res } = await browse(t.app, '/signin?sso=1');
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain(`No active user is linked to the external id ${subject}.`);
      expect(await linkOf('gil')).toEqual({ external_user_id: null, external_id_set_by: null });
      expect((await linkOf('lin')).external_user_id).toBe('other-idp-account');
    });
  });
});
