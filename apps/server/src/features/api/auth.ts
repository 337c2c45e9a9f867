import { createPublicKey, type KeyObject } from 'node:crypto';
import { type RsaPublicKey, rsaPublicKeyToDerBase64 } from '@dossier/core';
import { decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import type { DbOrTrx } from '../../db/database.js';
import { HttpError } from '../../http/errors.js';
import { type ApiKey, findApiKeys } from './keys.js';
import { purgeExpiredTokenIds, useTokenId } from './repository.js';

// Authentication of a public API call: `Authorization: Bearer <JWT>`, signed RS256 by the private
// key of an API key entry, the header's `kid` naming that entry. The token must be short-lived (exp
// at most five minutes ahead, iat not in the future), name this server's audience, and carry a
// token id (jti) that was never used before. Every refusal is a 401 and changes nothing: the token
// id is recorded only once everything else holds.

/** How far ahead a token may expire: a leaked token is useless after this. */
export const MAX_TOKEN_SECONDS = 300;
/** Tolerated difference between the client's and our clocks. */
export const CLOCK_SKEW_SECONDS = 30;

export interface ApiCaller {
  key: ApiKey;
  jti: string;
}

export const apiUnauthorized = (reason: string) =>
  new HttpError(401, reason, 'unauthorized', undefined, {
    'www-authenticate': `Bearer realm="dossier-api", error="invalid_token"`,
  });

const keyObjects = new Map<string, KeyObject>();

const WEAK_KEY = 'The API key is shorter than 2048 bits: replace it.';
// A key saved before weak keys were refused no longer verifies anything.
const isWeak = (publicKey: RsaPublicKey) => Buffer.from(publicKey.modulus, 'base64').length < 256;

function keyObjectOf(publicKey: RsaPublicKey): KeyObject {
  const der = rsaPublicKeyToDerBase64(publicKey);
  let key = keyObjects.get(der);
  if (!key) {
    key = createPublicKey({ key: Buffer.from(der, 'base64'), format: 'der', type: 'pkcs1' });
    if (keyObjects.size > 1000) keyObjects.clear();
    keyObjects.set(der, key);
  }
  return key;
}

function bearerOf(header: string | undefined): string {
  const match = /^Bearer\s+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)\s*$/.exec(header ?? '');
  if (!match) throw apiUnauthorized('An Authorization: Bearer <JWT> header is required.');
  return match[1]!; // the pattern's only group always takes part
}

function headerOf(token: string): { kid: string } {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw apiUnauthorized('The token is not a JWT.');
  }
  // Checked before any key is looked at: "none" and HMAC tokens never reach verification.
  if (header.alg !== 'RS256') throw apiUnauthorized('Only RS256 tokens are accepted.');
  if (typeof header.kid !== 'string' || header.kid.length === 0 || header.kid.length > 200)
    throw apiUnauthorized('The token header must name the API key in kid.');
  return { kid: header.kid };
}

function reasonOf(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'The token has expired.';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'The token is not meant for this API (aud).';
    if (error.claim === 'iat') return 'The token is issued in the future (iat).';
    return `The token's ${error.claim} claim is missing or invalid.`;
  }
  return 'The token signature is invalid.';
}

let lastPurge = 0;

/** Checks the bearer token of a call; answers the key it was signed with, or throws a 401. */
export async function authenticateApiCall(
  db: DbOrTrx,
  authorization: string | undefined,
  audience: string,
  now = new Date(),
): Promise<ApiCaller> {
  const token = bearerOf(authorization);
  const { kid } = headerOf(token);
  const candidates = await findApiKeys(db, kid);
  if (candidates.length === 0) throw apiUnauthorized('The token names an unknown API key (kid).');
  let failure: unknown;
  if (candidates.every((key) => isWeak(key.publicKey))) throw apiUnauthorized(WEAK_KEY);
  for (const key of candidates) {
    if (isWeak(key.publicKey)) continue;
    let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
    try {
      ({ payload } = await jwtVerify(token, keyObjectOf(key.publicKey), {
        algorithms: ['RS256'],
        audience,
        requiredClaims: ['exp', 'iat', 'jti'],
        maxTokenAge: MAX_TOKEN_SECONDS,
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: now,
      }));
    } catch (error) {
      failure = error;
      // Another key of the same id may have signed it; a claim failure is the token's, not the key's.
      if (error instanceof joseErrors.JWSSignatureVerificationFailed) continue;
      throw apiUnauthorized(reasonOf(error));
    }
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const exp = payload.exp as number;
    if (exp > nowSeconds + MAX_TOKEN_SECONDS + CLOCK_SKEW_SECONDS)
      throw apiUnauthorized(`The token must expire within ${MAX_TOKEN_SECONDS} seconds (exp).`);
    const jti = payload.jti;
    if (typeof jti !== 'string' || jti.length === 0 || jti.length > 200)
      throw apiUnauthorized('The token id (jti) must be a string of at most 200 characters.');
    if (now.getTime() - lastPurge > 60_000) {
      lastPurge = now.getTime();
      await purgeExpiredTokenIds(db, new Date(now.getTime() - CLOCK_SKEW_SECONDS * 1000));
    }
    // Kept past exp by the clock skew, so a token still accepted by the tolerance is still known.
    const keepUntil = new Date((exp + CLOCK_SKEW_SECONDS) * 1000);
    if (!(await useTokenId(db, kid, jti, keepUntil)))
      throw apiUnauthorized('The token was already used (jti); sign a new token for each call.');
    return { key, jti };
  }
  throw apiUnauthorized(reasonOf(failure));
}
