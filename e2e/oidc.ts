// The OpenID Connect provider the browser journeys sign in through (the same one the integration
// tests use), with oidc-provider's own login form: any login signs in the account of that subject.
// It offers sign-out back to Dossier's sign-in page and tells Dossier of each sign-out there
// (back-channel logout).
import { startTestProvider } from '../apps/server/test/support/oidcProvider.js';

const appPort = process.env.E2E_PORT ?? '3210';
const provider = await startTestProvider(
  {
    id: 'dossier-e2e',
    secret: 'e2e-secret',
    redirectUris: [`http://localhost:${appPort}/sso/callback`],
    postLogoutRedirectUris: [`http://localhost:${appPort}/signin`],
    // The app listens on 127.0.0.1 only.
    backchannelLogoutUri: `http://127.0.0.1:${appPort}/sso/backchannel-logout`,
  },
  Number(process.env.E2E_OIDC_PORT ?? 3299),
  { loginForm: true },
);
console.log(`test OpenID provider at ${provider.issuer}`);
