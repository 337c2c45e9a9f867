import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

// A real OpenID Connect provider for tests (oidc-provider), on loopback. Its login is answered
// automatically for the account `setSubject` names, so a test drives the whole code flow; with
// `loginForm` it shows oidc-provider's own login form instead, where any login is that account.
// Consent is implied (Dossier is a first-party client). It offers sign-out (end_session_endpoint)
// and, for a client with a back-channel logout URI, tells that client of each sign-out there.

export interface TestProvider {
  issuer: string;
  setSubject(sub: string): void;
  /** The email the provider tells of every account, and whether it asserts it verified. */
  setEmail(email: string | undefined, verified: boolean): void;
  /** The authentication methods (amr) the provider reports of its next logins; none by default. */
  setAmr(amr: string[] | undefined): void;
  close(): Promise<void>;
}

export interface TestClient {
  id: string;
  secret: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  backchannelLogoutUri?: string;
}

export async function startTestProvider(
  client: TestClient,
  port = 0,
  options: { loginForm?: boolean } = {},
): Promise<TestProvider> {
  let subject = 'sso-user-1';
  let amr: string[] | undefined;
  let email: { address: string | undefined; verified: boolean } = { address: undefined, verified: false };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: client.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        post_logout_redirect_uris: client.postLogoutRedirectUris ?? [],
        ...(client.backchannelLogoutUri
          ? { backchannel_logout_uri: client.backchannelLogoutUri, backchannel_logout_session_required: true }
          : {}),
      },
    ],
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({
        sub,
        email: email.address ?? `${sub}@idp.test`,
        email_verified: email.verified,
      }),
    }),
    claims: { openid: ['sub', 'amr'], email: ['email', 'email_verified'] },
    features: {
      devInteractions: { enabled: options.loginForm === true },
      backchannelLogout: { enabled: true },
    },
    cookies: { keys: ['test-cookie-key'] },
    // oidc-provider's own login form answers at its own address.
    ...(options.loginForm
      ? {}
      : { interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` } }),
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session?.grantIdFor(client.id);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: client.id,
        accountId: ctx.oidc.session?.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    // Its guard against requests to private addresses would stop the logout call to a loopback Dossier.
    // (`dispatcher` is undici's; the DOM RequestInit the root type check sees has no such key.)
    fetch: (url, { dispatcher: _guard, ...init }: RequestInit & { dispatcher?: unknown } = {}) =>
      fetch(url, init),
  });
  provider.use(async (ctx, next) => {
    const match = /^\/interaction\/([^/]+)$/.exec(ctx.path);
    if (!match || options.loginForm) return next();
    // Only the login prompt comes here: loadExistingGrant answers consent.
    await provider.interactionDetails(ctx.req, ctx.res);
    await provider.interactionFinished(ctx.req, ctx.res, {
      login: { accountId: subject, ...(amr ? { amr } : {}) },
    });
    ctx.respond = false;
  });
  server.on('request', provider.callback());
  return {
    issuer,
    setSubject: (sub) => {
      subject = sub;
    },
    setEmail: (address, verified) => {
      email = { address, verified };
    },
    setAmr: (methods) => {
      amr = methods;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
