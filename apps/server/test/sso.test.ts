import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { LOGOUT_TOKEN_REUSED } from '../src/features/sso/logout.js';
import { SSO_ERROR_TEXT } from '../src/features/sso/routes.js';
import { SSO_FAILURE_TEXT } from '../src/features/sso/service.js';
import { createTestContext, createUser, type TestContext, XHR } from './helpers.js';
import { startTestProvider, type TestProvider } from './support/oidcProvider.js';
import { browse, DOSSIER, signOutAtProvider } from './support/ssoBrowse.js';
import { configureScope } from './support/workflow.js';

// Single sign-on against a real OpenID Connect provider: the whole authorization code flow with
// PKCE, state and nonce, users matched by their external id.

let idp: TestProvider;
let t: TestContext;
const isSignedIn = async (cookie: string) =>
  (await t.app.inject({ url: '/sso/reauthenticated', headers: { ...XHR, cookie } })).statusCode === 200;

/** The provider's back-channel logout calls, passed on to Dossier, with Dossier's answers. */
const backchannelCalls: number[] = [];
/** The bodies the provider posted, as a captured token would be replayed. */
const backchannelBodies: string[] = [];
const backchannel = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', async () => {
    backchannelBodies.push(body);
    const answer = await t.app.inject({
      method: 'POST',
      url: req.url ?? '/',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      payload: body,
    });
    backchannelCalls.push(answer.statusCode);
    res.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(answer.body);
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => backchannel.listen(0, '127.0.0.1', resolve));
  const backchannelPort = (backchannel.address() as AddressInfo).port;
  idp = await startTestProvider({
    id: 'dossier',
    secret: 'dossier-secret',
    redirectUris: [`${DOSSIER}/sso/callback`],
    postLogoutRedirectUris: [`${DOSSIER}/signin`],
    backchannelLogoutUri: `http://127.0.0.1:${backchannelPort}/sso/backchannel-logout`,
  });
  t = await createTestContext({
    sso: {
      issuerUrl: idp.issuer,
      clientId: 'dossier',
      clientSecret: 'dossier-secret',
      passwordHandling: false,
      applications: [{ name: 'Records', icon: 'records.svg', url: 'https://records.example/' }],
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
afterAll(async () => {
  await t.close();
  await idp.close();
  await new Promise((resolve) => backchannel.close(resolve));
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

  it('shows the specification text and the reason when no user has that external id, never the subject', async () => {
    idp.setSubject('stranger');
    const { res } = await browse(t.app, '/signin?sso=1');
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain(SSO_ERROR_TEXT);
    expect(res.body).toContain(SSO_FAILURE_TEXT.unknown);
    expect(res.body).not.toContain('stranger');
  });

  it('tells a disabled user apart, in its own words', async () => {
    await createUser(t.db, { id: 'dora' });
    await t.db
      .updateTable('users')
      .set({ external_user_id: 'idp-dora', disabled: true })
      .where('id', '=', 'dora')
      .execute();
    idp.setSubject('idp-dora');
    const { res } = await browse(t.app, '/signin?sso=1');
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain(SSO_FAILURE_TEXT.disabled);
    expect(res.body).not.toContain('idp-dora');
    expect(SSO_FAILURE_TEXT.disabled).not.toBe(SSO_FAILURE_TEXT.unknown);
  });

  it('signs in as someone else at the provider from the error page (prompt=login)', async () => {
    idp.setSubject('stranger');
    const jar = new Map<string, string>();
    expect((await browse(t.app, '/signin?sso=1', '', jar)).res.statusCode).toBe(401);
    const start = await t.app.inject({ url: '/signin?sso=1&prompt=login' });
    expect(start.statusCode).toBe(303);
    expect(new URL(start.headers.location as string).searchParams.get('prompt')).toBe('login');
    // The provider asks who signs in, although "stranger" is signed in there.
    idp.setSubject('sso-user-1');
    const { res, cookie } = await browse(t.app, '/signin?sso=1&prompt=login&return-url=%2Fhelp', '', jar);
    expect(res.statusCode).toBe(200);
    const view = await t.app.inject({ url: '/sso/reauthenticated', headers: { ...XHR, cookie } });
    expect(view.json()).toMatchObject({ user: { id: 'sally' } });
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
      expect(res.body).toContain(SSO_FAILURE_TEXT.unknown);
      expect(await linkOf('gil')).toEqual({ external_user_id: null, external_id_set_by: null });
      expect((await linkOf('lin')).external_user_id).toBe('other-idp-account');
    });
  });

  describe('an unlink holds', () => {
    beforeAll(async () => {
      await createUser(t.db, { id: 'una', scope: '/org/acme/' });
    });
    afterAll(() => idp.setEmail(undefined, false));

    it('signs the user out everywhere and keeps its subject from linking by email again', async () => {
      // Linked at its first sign-in by the verified email (Acme allows it), signed in twice.
      idp.setSubject('idp-una');
      idp.setEmail('una@test.example', true);
      const first = await browse(t.app, '/signin?sso=1');
      const second = await browse(t.app, '/signin?sso=1');
      expect(await isSignedIn(first.cookie)).toBe(true);
      idp.setSubject('idp-ada');
      const admin = (await browse(t.app, '/signin?sso=1')).cookie;
      const unlink = await t.app.inject({
        method: 'POST',
        url: '/admin/users/edit/una/unlink-sso',
        headers: { ...XHR, cookie: admin },
      });
      expect(unlink.statusCode).toBe(200);
      expect(await isSignedIn(first.cookie)).toBe(false);
      expect(await isSignedIn(second.cookie)).toBe(false);

      // The next sign-in, with the same subject and verified email, links nothing and says why.
      idp.setSubject('idp-una');
      const again = await browse(t.app, '/signin?sso=1');
      expect(again.res.statusCode).toBe(401);
      expect(again.res.body).toContain(SSO_FAILURE_TEXT.unlinked);
      expect(again.res.body).not.toContain('idp-una');
      const row = await t.db
        .selectFrom('users')
        .select('external_user_id')
        .where('id', '=', 'una')
        .executeTakeFirstOrThrow();
      expect(row.external_user_id).toBeNull();
      const history = await t.db
        .selectFrom('events')
        .select(['type', 'actor'])
        .where('aggregate_id', '=', 'una')
        .orderBy('id')
        .execute();
      expect(history.map((e) => e.type)).toEqual(['ssoLinked', 'ssoUnlinked']);
      expect(history[1]?.actor).toBe('ada');

      // An administrator's link (here as a provisioning client sets it) brings it back.
      await t.db.updateTable('users').set({ external_user_id: 'idp-una' }).where('id', '=', 'una').execute();
      expect((await browse(t.app, '/signin?sso=1&return-url=%2Fhelp')).res.statusCode).toBe(200);
    });
  });

  describe('signing out everywhere', () => {
    it('signs a single sign-on session out at the provider too, which comes back to the sign-in page', async () => {
      idp.setSubject('sso-user-1');
      const jar = new Map<string, string>();
      const { cookie } = await browse(t.app, '/signin?sso=1', '', jar);
      const out = await t.app.inject({ method: 'POST', url: '/signout', headers: { ...XHR, cookie } });
      expect(out.statusCode).toBe(200);
      const redirect = new URL(out.json().redirect);
      expect(`${redirect.origin}${redirect.pathname}`).toBe(`${idp.issuer}/session/end`);
      expect(redirect.searchParams.get('post_logout_redirect_uri')).toBe(`${DOSSIER}/signin`);
      expect(redirect.searchParams.get('id_token_hint')).toMatch(/^ey/);
      expect(await isSignedIn(cookie)).toBe(false);
      // The provider accepts the ID token and the address back, and returns to the sign-in page.
      expect(await signOutAtProvider(jar, redirect)).toBe(`${DOSSIER}/signin`);

      // Without JavaScript the form post is sent there directly; a password session signs out as before.
      const again = await browse(t.app, '/signin?sso=1');
      const plain = await t.app.inject({
        method: 'POST',
        url: '/signout',
        headers: { cookie: again.cookie, origin: DOSSIER, host: 'localhost' },
      });
      expect(plain.statusCode).toBe(303);
      expect(plain.headers.location).toMatch(new RegExp(`^${idp.issuer}/session/end\\?`));
      // Passwords are off here: a session without an ID token stands for a password session.
      const password = (await browse(t.app, '/signin?sso=1')).cookie;
      await t.db.updateTable('sessions').set({ sso_id_token: null }).execute();
      const passwordOut = await t.app.inject({
        method: 'POST',
        url: '/signout',
        headers: { ...XHR, cookie: password },
      });
      expect(passwordOut.json()).toEqual({ ok: true });
    });

    it('ends the sessions of a provider session when the provider signs the user out there', async () => {
      idp.setSubject('sso-user-1');
      const jar = new Map<string, string>();
      const first = await browse(t.app, '/signin?sso=1', '', jar);
      const second = await browse(t.app, '/signin?sso=1', '', jar);
      const elsewhere = await browse(t.app, '/signin?sso=1');
      expect(await isSignedIn(first.cookie)).toBe(true);
      expect(await isSignedIn(second.cookie)).toBe(true);
      backchannelCalls.length = 0;
      // Signed out at the provider, not through Dossier: the provider posts a logout token.
      await signOutAtProvider(jar, new URL(`${idp.issuer}/session/end`));
      expect(backchannelCalls).toEqual([200]);
      expect(await isSignedIn(first.cookie)).toBe(false);
      expect(await isSignedIn(second.cookie)).toBe(false);
      // A browser signed in at the provider in another session keeps its Dossier session.
      expect(await isSignedIn(elsewhere.cookie)).toBe(true);
    });

    it('refuses a replayed logout token (400) and ends nothing, on any instance', async () => {
      idp.setSubject('sso-user-1');
      const jar = new Map<string, string>();
      const first = await browse(t.app, '/signin?sso=1', '', jar);
      await t.db.deleteFrom('sso_logout_tokens').execute();
      backchannelCalls.length = 0;
      backchannelBodies.length = 0;
      await signOutAtProvider(jar, new URL(`${idp.issuer}/session/end`));
      expect(backchannelCalls).toEqual([200]);
      expect(await isSignedIn(first.cookie)).toBe(false);
      const [captured = ''] = backchannelBodies;
      // The user signs in again (without a provider session, so sub alone would name it too).
      const fresh = await browse(t.app, '/signin?sso=1', '', jar);
      expect(await isSignedIn(fresh.cookie)).toBe(true);
      // The session says it came through single sign-on (issue 35).
      const methods = await t.db
        .selectFrom('sessions')
        .select('auth_method')
        .where('sso_subject', 'is not', null)
        .execute();
      expect(methods.map((m) => m.auth_method)).toContain('sso');
      expect(methods.every((m) => m.auth_method === 'sso')).toBe(true);
      const used = await t.db.selectFrom('sso_logout_tokens').select(['jti', 'expires_at']).execute();
      expect(used).toHaveLength(1);
      // The same token posted again, with the sid and sub of the new session put on the row it names.
      const sid = new URLSearchParams(captured).get('logout_token')?.split('.')[1] ?? '';
      const claims = JSON.parse(Buffer.from(sid, 'base64url').toString()) as { sid: string; sub: string };
      await t.db
        .updateTable('sessions')
        .set({ sso_sid: claims.sid })
        .where('sso_subject', '=', claims.sub)
        .execute();
      for (let i = 0; i < 2; i++) {
        const replay = await t.app.inject({
          method: 'POST',
          url: '/sso/backchannel-logout',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: captured,
        });
        expect(replay.statusCode).toBe(400);
        expect(replay.json()).toEqual({ error: 'invalid_request', error_description: LOGOUT_TOKEN_REUSED });
      }
      expect(await isSignedIn(fresh.cookie)).toBe(true);
      // Entries past their token's life are purged when the next logout token is taken.
      await t.db
        .updateTable('sso_logout_tokens')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .execute();
      await signOutAtProvider(jar, new URL(`${idp.issuer}/session/end`));
      const kept = await t.db.selectFrom('sso_logout_tokens').select('jti').execute();
      expect(kept).toHaveLength(1);
      expect(kept[0]?.jti).not.toBe(used[0]?.jti);
    });

    it("refuses logout tokens that are not the provider's and ends nothing", async () => {
      idp.setSubject('sso-user-1');
      const { cookie } = await browse(t.app, '/signin?sso=1');
      const { sso_id_token: idToken } = await t.db
        .selectFrom('sessions')
        .select('sso_id_token')
        .where('sso_id_token', 'is not', null)
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      const { privateKey } = await generateKeyPair('RS256');
      const forged = await new SignJWT({
        sub: 'sso-user-1',
        jti: 'forged',
        events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'forged' })
        .setIssuer(idp.issuer)
        .setAudience('dossier')
        .setIssuedAt()
        .sign(privateKey);
      const post = (payload: string) =>
        t.app.inject({
          method: 'POST',
          url: '/sso/backchannel-logout',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload,
        });
      // An ID token is signed by the provider, but it is no logout event (and carries a nonce).
      for (const token of ['not-a-jwt', forged, idToken ?? '']) {
        const res = await post(new URLSearchParams({ logout_token: token }).toString());
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ error: 'invalid_request' });
        expect(res.headers['cache-control']).toBe('no-store');
      }
      expect((await post('')).statusCode).toBe(400);
      expect(await isSignedIn(cookie)).toBe(true);
    });
  });
});
