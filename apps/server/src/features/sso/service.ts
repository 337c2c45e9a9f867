import { SSO_LINKED_BY_VERIFIED_EMAIL, ssoTokenHasSecondFactor } from '@dossier/core';
import * as oidc from 'openid-client';
import { recordEvent } from '../../audit/events.js';
import type { Config } from '../../config.js';
import type { Db, DbOrTrx } from '../../db/database.js';
import {
  beginChallenge,
  hasSecondFactor,
  mustEnrolSecondFactor,
  sessionIdOf,
  startSession,
} from '../auth/index.js';
import { getNearestScopeEntry } from '../configuration/index.js';
import { providerOf, type SsoConfig } from './client.js';
import * as repo from './repository.js';

/** Where the identity provider sends the browser back to. */
export function callbackUrl(baseUrl: string): string {
  // Through URL, so an explicit default port (host:80) matches the registered redirect URI.
  return new URL('/sso/callback', baseUrl).toString();
}

/** Why a sign-in through the provider signed nobody in: each has its own words on the error page. */
export const SSO_FAILURE_TEXT = {
  unknown:
    'Your account at the identity provider is not linked to any user here. Sign in as someone else at the provider, or ask your System Administrator to link your account.',
  unlinked:
    'An administrator unlinked your account at the identity provider from its user here. It signs in again only once an administrator links it again.',
  disabled: 'The user your account at the identity provider is linked to is disabled.',
  unreachable: 'The identity provider cannot be reached at the moment. Please try again later.',
} as const;

/**
 * Starts a sign-in at the identity provider; answers the address to send the browser to. With
 * `prompt: 'login'` the provider asks who signs in even when someone is signed in there already.
 */
export async function beginSsoSignIn(
  db: DbOrTrx,
  sso: SsoConfig,
  redirectUri: string,
  returnUrl: string,
  prompt?: 'login',
) {
  const provider = await providerOf(sso);
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  await repo.insertLogin(db, { state, codeVerifier, nonce, returnUrl });
  return oidc.buildAuthorizationUrl(provider, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...(prompt ? { prompt } : {}),
  });
}

export type SsoOutcome =
  | { ok: true; token: string; userId: string; returnUrl: string; mustEnrol?: boolean }
  | { ok: true; challenge: string; userId: string; returnUrl: string }
  | { ok: false; message: string; subject?: string };

/**
 * Finishes a sign-in: the code is exchanged (PKCE, state and nonce checked by openid-client) and
 * the user is found by its external id, the provider's `sub`.
 */
export async function finishSsoSignIn(
  db: Db,
  config: Config,
  sso: SsoConfig,
  currentUrl: URL,
  client: { ip: string; userAgent: string | null; previousToken?: string | undefined },
): Promise<SsoOutcome> {
  const state = currentUrl.searchParams.get('state');
  const error = currentUrl.searchParams.get('error');
  if (error) return { ok: false, message: currentUrl.searchParams.get('error_description') ?? error };
  const login = state ? await repo.takeLogin(db, state) : undefined;
  if (!login) return { ok: false, message: 'The sign-in has expired or was already used. Please try again.' };
  let subject: string;
  let user: { id: string; disabled: boolean } | undefined;
  let idToken: string | undefined;
  let sid: string | undefined;
  let strong = false;
  try {
    const provider = await providerOf(sso);
    const tokens = await oidc.authorizationCodeGrant(provider, currentUrl, {
      pkceCodeVerifier: login.code_verifier,
      ...(state === null ? {} : { expectedState: state }),
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    subject = tokens.claims()?.sub ?? '';
    const claims = tokens.claims();
    strong = ssoTokenHasSecondFactor({ amr: claims?.amr, acr: claims?.acr }, sso.secondFactorAcr ?? []);
    idToken = tokens.id_token;
    const sessionClaim = tokens.claims()?.sid;
    sid = typeof sessionClaim === 'string' ? sessionClaim : undefined;
    user = subject ? await repo.findUserByExternalId(db, subject) : undefined;
    // A subject an administrator unlinked does not link itself again by email.
    if (!user && subject && (await repo.isUnlinkedSubject(db, subject)))
      return { ok: false, message: SSO_FAILURE_TEXT.unlinked, subject };
    if (!user && subject) user = await linkByVerifiedEmail(db, provider, tokens, subject);
  } catch (cause) {
    return { ok: false, message: cause instanceof Error ? cause.message : String(cause) };
  }
  // The page never shows the provider's subject (the log keeps it): only the person's situation.
  if (!user) return { ok: false, message: SSO_FAILURE_TEXT.unknown, subject };
  if (user.disabled) return { ok: false, message: SSO_FAILURE_TEXT.disabled, subject };
  // The provider's own second factor counts (amr, or an acr the configuration lists); otherwise the
  // local one applies: the code or passkey follows as after a password, or enrolment if required.
  if (!strong && (await hasSecondFactor(db, user.id))) {
    const challenge = await beginChallenge(db, user.id, { idToken, subject, sid });
    return { ok: true, challenge, userId: user.id, returnUrl: login.return_url };
  }
  const mustEnrol = !strong && (await mustEnrolSecondFactor(db, user.id));
  const token = await startSession(
    db,
    config,
    user.id,
    { username: user.id, password: '', ...client },
    { authMethod: 'sso', mustEnrol },
  );
  // What signing out at the provider, or the provider signing the user out, will need.
  await repo.markSsoSession(db, sessionIdOf(token), { idToken, subject, sid });
  return {
    ok: true,
    token,
    userId: user.id,
    returnUrl: login.return_url,
    ...(mustEnrol ? { mustEnrol } : {}),
  };
}

/**
 * A first sign-in whose subject matches nobody: where the scope of the user with the provider's
 * verified email allows it, that user is linked to the subject (recorded in its history). Never a
 * user already linked to another account, never on an email the provider does not vouch for.
 */
async function linkByVerifiedEmail(
  db: Db,
  provider: oidc.Configuration,
  tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
  subject: string,
): Promise<{ id: string; disabled: boolean } | undefined> {
  // The ID token carries the email claims only with some providers; the others answer at userinfo.
  let claims: Record<string, unknown> = { ...tokens.claims() };
  if (claims.email === undefined) claims = await oidc.fetchUserInfo(provider, tokens.access_token, subject);
  if (claims.email_verified !== true || typeof claims.email !== 'string') return undefined;
  const email = claims.email;
  const candidate = await repo.findUnlinkedUserByEmail(db, email);
  if (!candidate) return undefined;
  const scope = await getNearestScopeEntry(db, candidate.scope);
  if (!scope?.linkSsoByVerifiedEmail) return undefined;
  // The link and its history line commit together (the provider was asked above, outside it).
  return db.transaction().execute(async (trx) => {
    if (!(await repo.linkExternalId(trx, candidate.id, subject, SSO_LINKED_BY_VERIFIED_EMAIL)))
      return undefined;
    await recordEvent(trx, {
      type: 'ssoLinked',
      aggregateType: 'user',
      aggregateId: candidate.id,
      actor: candidate.id,
      payload: {
        summary: `Linked to single sign-on at the first sign-in, by the verified email ${email}.`,
        changes: {
          externalUserId: { from: null, to: subject },
          externalUserIdSetBy: { from: null, to: SSO_LINKED_BY_VERIFIED_EMAIL },
        },
      },
    });
    return { id: candidate.id, disabled: false };
  });
}
