// The OpenID Connect provider the browser journeys sign in through (the same one the integration
// tests use); it signs in the account E2E_SSO_SUBJECT without asking.
import { startTestProvider } from '../apps/server/test/support/oidcProvider.js';

const appPort = process.env.E2E_PORT ?? '3210';
const provider = await startTestProvider(
  { id: 'dossier-e2e', secret: 'e2e-secret', redirectUris: [`http://localhost:${appPort}/sso/callback`] },
  Number(process.env.E2E_OIDC_PORT ?? 3299),
);
provider.setSubject(process.env.E2E_SSO_SUBJECT ?? 'sso-handler');
console.log(`test OpenID provider at ${provider.issuer}`);
