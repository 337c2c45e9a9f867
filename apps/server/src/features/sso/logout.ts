import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import type { Db, DbOrTrx } from '../../db/database.js';
import type { LiveHub } from '../../live/hub.js';
import { providerOf, type SsoConfig } from './client.js';
import * as repo from './repository.js';

// Sign-out everywhere (OpenID Connect RP-Initiated Logout 1.0 and Back-Channel Logout 1.0).

const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/**
 * Where to send the browser of a session begun through single sign-on when it signs out: the
 * provider's end_session_endpoint, naming the session by its ID token and coming back to the sign-in
 * page. Undefined for a password session, or when the provider offers no such endpoint or cannot be
 * reached: signing out of Dossier never waits for the provider.
 */
export async function providerSignOutUrl(
  db: DbOrTrx,
  sso: SsoConfig,
  sessionId: string,
  signInUrl: string,
): Promise<string | undefined> {
  const session = await repo.findSsoIdToken(db, sessionId);
  if (!session?.sso_id_token) return undefined;
  try {
    const provider = await providerOf(sso);
    if (!provider.serverMetadata().end_session_endpoint) return undefined;
    return oidc
      .buildEndSessionUrl(provider, {
        id_token_hint: session.sso_id_token,
        post_logout_redirect_uri: signInUrl,
      })
      .toString();
  } catch {
    return undefined;
  }
}

// The provider's keys, fetched when first needed and refreshed by jose when an unknown key id comes.
let keys: { uri: string; set: ReturnType<typeof createRemoteJWKSet> } | undefined;

function keysAt(uri: string) {
  if (keys?.uri !== uri) keys = { uri, set: createRemoteJWKSet(new URL(uri)) };
  return keys.set;
}

export type BackchannelOutcome = { ok: true; ended: number } | { ok: false; message: string };

/** How old a logout token may be (its `iat`): the provider posts it at once. */
const MAX_TOKEN_AGE_SECONDS = 10 * 60;
/** jose's default clock tolerance is none; a used `jti` is kept a minute past the token's life. */
const KEEP_AFTER_SECONDS = 60;

export const LOGOUT_TOKEN_REUSED = 'The logout token was used before.';

/**
 * The provider says a user signed out there: its logout token (a JWT signed with the provider's
 * keys) is checked as Back-Channel Logout 1.0 section 2.6 asks, and the Dossier sessions it names end
 * on every instance, live sockets included. Each token works once: its `jti` is kept in PostgreSQL
 * (sso_logout_tokens, so every instance sees it) for as long as the token would pass its checks, and a
 * token posted again is refused and ends nothing (a replay would end sessions begun since).
 */
export async function backchannelLogout(
  db: Db,
  live: LiveHub | undefined,
  sso: SsoConfig,
  logoutToken: string,
): Promise<BackchannelOutcome> {
  let claims: JWTPayload;
  try {
    const metadata = (await providerOf(sso)).serverMetadata();
    if (!metadata.jwks_uri) return { ok: false, message: 'The provider publishes no keys.' };
    ({ payload: claims } = await jwtVerify(logoutToken, keysAt(metadata.jwks_uri), {
      issuer: metadata.issuer,
      audience: sso.clientId,
      requiredClaims: ['iat', 'jti', 'events'],
      maxTokenAge: MAX_TOKEN_AGE_SECONDS,
    }));
  } catch (cause) {
    return { ok: false, message: cause instanceof Error ? cause.message : String(cause) };
  }
  const events = claims.events as Record<string, unknown> | undefined;
  const event = typeof events === 'object' && events !== null ? events[BACKCHANNEL_LOGOUT_EVENT] : undefined;
  if (typeof event !== 'object' || event === null)
    return { ok: false, message: 'The token is not a back-channel logout event.' };
  // A nonce would make it an ID token, which must never be taken for a logout token.
  if ('nonce' in claims) return { ok: false, message: 'A logout token carries no nonce.' };
  const subject = typeof claims.sub === 'string' && claims.sub ? claims.sub : undefined;
  const sid = typeof claims.sid === 'string' && claims.sid ? claims.sid : undefined;
  if (!subject && !sid) return { ok: false, message: 'The token names neither a subject nor a session.' };
  const jti = typeof claims.jti === 'string' && claims.jti ? claims.jti : undefined;
  if (!jti) return { ok: false, message: 'The token carries no token id (jti).' };
  // Refused by its age after iat + 10 minutes, and by its exp: kept until the later of the two.
  const iat = claims.iat ?? 0;
  const until = Math.max(iat + MAX_TOKEN_AGE_SECONDS, claims.exp ?? 0) + KEEP_AFTER_SECONDS;
  const now = new Date();
  await repo.purgeExpiredLogoutTokens(db, now);
  // The token is taken and the sessions end together: a failed deletion leaves the token usable.
  const ended = await db.transaction().execute(async (trx) => {
    if (!(await repo.useLogoutToken(trx, `${claims.iss ?? ''} ${jti}`, new Date(until * 1000))))
      return undefined;
    return repo.deleteSessionsOfProvider(trx, { subject, sid });
  });
  if (!ended) return { ok: false, message: LOGOUT_TOKEN_REUSED };
  for (const id of ended) await live?.endSession(db, id);
  return { ok: true, ended: ended.length };
}
