import { createHash, randomUUID } from 'node:crypto';
import {
  type authenticationResponseSchema,
  type registrationResponseSchema,
  tryAgainIn,
} from '@dossier/core';
import {
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { z } from 'zod';
import type { Config } from '../../config.js';
import type { Db, DbOrTrx } from '../../db/database.js';
import { takeRateOrWait } from '../../db/rateLimit.js';
import { badRequest, conflict, HttpError, tooManyRequests } from '../../http/errors.js';
import type { LiveHub } from '../../live/hub.js';
import { addressWait, lockWait, withRetry } from './limits.js';
import * as pk from './passkeyRepository.js';
import * as repo from './repository.js';
import * as factors from './secondFactorRepository.js';
import { afterFactorAdded, hasSecondFactor } from './secondFactors.js';
import { rememberDevice, startSecondFactorSession } from './secondStep.js';
import { isAllowedAddress, SIGNIN_FAILURE_TEXT, sessionIdOf } from './service.js';

// Passkeys and security keys (issue 35): WebAuthn through @simplewebauthn/server, always with user
// verification (a PIN or a fingerprint on the authenticator), so a passkey is two factors in one:
// what the user has and what the user knows or is. Each ceremony's challenge is a row taken once.

/** Who the credentials are for: this site's host name and origin (from PUBLIC_URL or the request). */
export interface RelyingParty {
  id: string;
  origin: string;
}

const CEREMONY_MINUTES = 5;
/** Passwordless sign-ins one address may begin per minute. */
const OPTIONS_PER_MINUTE = 30;
/** ES256, EdDSA, RS256: named, so the library does not probe the runtime for post-quantum ones. */
const ALGORITHMS = [-7, -8, -257];
const RP_NAME = 'Dossier';

type RegistrationResponse = z.output<typeof registrationResponseSchema>;
type AuthenticationResponse = z.output<typeof authenticationResponseSchema>;

export type PasskeyFailure = 'notVerified' | 'unknown' | 'expired' | 'locked' | 'tooMany' | 'notOffered';

export const PASSKEY_FAILURE_TEXT: Record<PasskeyFailure, string> = {
  notVerified: 'The passkey could not be verified.',
  unknown: 'This passkey is not known here. Sign in with your password, then add it on your account page.',
  expired: 'The sign-in has expired. Please sign in again.',
  locked: 'This account is temporarily locked after repeated failed sign-ins.',
  tooMany: 'Too many failed sign-ins from this address.',
  notOffered: 'Signing in with a passkey alone is not offered here.',
};

function fail(failure: PasskeyFailure, status = 401, wait?: number): HttpError {
  const text = PASSKEY_FAILURE_TEXT[failure];
  return new HttpError(
    status,
    failure === 'locked' || failure === 'tooMany' ? withRetry(text, wait) : text,
    failure,
    undefined,
    wait ? { 'retry-after': String(wait) } : undefined,
  );
}

/** The user handle given to authenticators: not the user id itself, which may be a name. */
function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(`dossier-user:${userId}`).digest());
}

function transportsOf(stored: string | null): AuthenticatorTransport[] {
  try {
    const list: unknown = JSON.parse(stored ?? '[]');
    return Array.isArray(list) ? (list.filter((t) => typeof t === 'string') as AuthenticatorTransport[]) : [];
  } catch {
    return [];
  }
}

/** The challenge the browser signed, read from its client data (a refusal when it is no JSON). */
function signedChallenge(clientDataJSON: string): string {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    if (typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 200) return challenge;
  } catch {
    // answered below
  }
  throw badRequest(PASSKEY_FAILURE_TEXT.notVerified);
}

/** The user a sign-in challenge cookie waits for, if it is still live. */
export async function challengeUserOf(db: DbOrTrx, challengeCookie: string): Promise<string | undefined> {
  return (await factors.findChallenge(db, sessionIdOf(challengeCookie)))?.user_id;
}

/** `{ passkey: true }` when the user holds a passkey (the sign-in page offers it), else nothing. */
export async function holdsPasskey(db: DbOrTrx, userId: string): Promise<{ passkey?: true }> {
  return (await pk.passkeysOf(db, userId)).length > 0 ? { passkey: true } : {};
}

const expiresAt = () => new Date(Date.now() + CEREMONY_MINUTES * 60_000);

/** The options to create a passkey for the own account; the passkeys it holds are excluded. */
export async function passkeyRegistrationOptions(
  db: DbOrTrx,
  rp: RelyingParty,
  user: { id: string; email: string; name: string },
) {
  const existing = await pk.passkeysOf(db, user.id);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: user.email || user.id,
    userDisplayName: user.name,
    userID: userHandle(user.id),
    attestationType: 'none',
    supportedAlgorithmIDs: ALGORITHMS,
    timeout: CEREMONY_MINUTES * 60_000,
    excludeCredentials: existing.map((p) => ({
      id: p.credential_id ?? '',
      transports: transportsOf(p.transports),
    })),
    // A discoverable credential where the authenticator can keep one: it also signs in alone.
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
  await pk.insertWebauthnChallenge(db, {
    challenge: options.challenge,
    purpose: 'register',
    userId: user.id,
    expiresAt: expiresAt(),
  });
  return options as typeof options & Record<string, unknown>;
}

/** Adds the created passkey, named; the first second factor brings the recovery codes. */
export async function addPasskey(
  db: Db,
  live: LiveHub | undefined,
  rp: RelyingParty,
  actor: { id: string; sessionId?: string | undefined },
  input: { name: string; response: RegistrationResponse },
): Promise<{ recoveryCodes: string[] | null }> {
  const challenge = signedChallenge(input.response.response.clientDataJSON);
  const ceremony = await pk.takeWebauthnChallenge(db, challenge, 'register');
  if (ceremony?.user_id !== actor.id) throw badRequest(PASSKEY_FAILURE_TEXT.expired);
  let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
  try {
    const verified = await verifyRegistrationResponse({
      response: input.response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    info = verified.verified ? verified.registrationInfo : undefined;
  } catch {
    info = undefined;
  }
  if (!info) throw badRequest(PASSKEY_FAILURE_TEXT.notVerified);
  const credential = info.credential;
  if (await pk.findPasskeyByCredential(db, credential.id)) throw conflict('This passkey is already added.');
  return db.transaction().execute(async (trx) => {
    const first = !(await hasSecondFactor(trx, actor.id));
    await pk.insertPasskey(trx, {
      id: randomUUID(),
      userId: actor.id,
      name: input.name,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      transports: credential.transports ?? [],
      signCount: credential.counter,
    });
    const recoveryCodes = await afterFactorAdded(trx, live, actor, `${input.name} (passkey)`, first);
    return { recoveryCodes };
  });
}

/**
 * The options to sign in with a passkey: after the right password (the challenge cookie) those of
 * that user; without it a passwordless sign-in, where the configuration allows it.
 */
export async function passkeySignInOptions(
  db: DbOrTrx,
  config: Config,
  rp: RelyingParty,
  challengeCookie: string | undefined,
  ip: string,
) {
  let userId: string | null = null;
  if (challengeCookie) {
    const waiting = await factors.findChallenge(db, sessionIdOf(challengeCookie));
    if (!waiting) throw fail('expired');
    userId = waiting.user_id;
  } else if (!config.signin.passkeySignIn) {
    throw fail('notOffered', 404);
  } else {
    // Anyone may ask, and each answer is a row for five minutes: a limit per address keeps it small.
    const wait = await takeRateOrWait(db, 'passkeyOptions', ip, OPTIONS_PER_MINUTE, 60);
    if (wait) throw tooManyRequests(`Too many passkey sign-ins from this address. ${tryAgainIn(wait)}`, wait);
  }
  const allow = userId ? await pk.passkeysOf(db, userId) : [];
  if (userId && allow.length === 0) throw badRequest('You have no passkey: enter a code instead.');
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    timeout: CEREMONY_MINUTES * 60_000,
    allowCredentials: allow.map((p) => ({
      id: p.credential_id ?? '',
      transports: transportsOf(p.transports),
    })),
  });
  await pk.insertWebauthnChallenge(db, {
    challenge: options.challenge,
    purpose: 'signin',
    userId,
    expiresAt: expiresAt(),
  });
  return options as typeof options & Record<string, unknown>;
}

/**
 * A sign-in with a passkey: as the second step (the ceremony was for the challenge's user) or
 * alone. A failure counts toward the lockout and the address limit like a wrong password.
 */
export async function signInWithPasskey(
  db: Db,
  config: Config,
  live: LiveHub | undefined,
  rp: RelyingParty,
  input: {
    response: AuthenticationResponse;
    challengeCookie: string | undefined;
    ip: string;
    userAgent: string | null;
    previousToken?: string | undefined;
    /** Remember this browser for 30 days: the second step's box, honoured where the configuration offers it. */
    remember?: boolean;
  },
): Promise<{ token: string; userId: string; device?: string }> {
  const now = Date.now();
  const challenge = signedChallenge(input.response.response.clientDataJSON);
  const ceremony = await pk.takeWebauthnChallenge(db, challenge, 'signin');
  if (!ceremony) throw fail('expired');
  let challengeId: string | undefined;
  if (ceremony.user_id !== null) {
    challengeId = input.challengeCookie ? sessionIdOf(input.challengeCookie) : undefined;
    const waiting = challengeId ? await factors.findChallenge(db, challengeId) : undefined;
    if (waiting?.user_id !== ceremony.user_id) throw fail('expired');
  } else if (!config.signin.passkeySignIn) {
    throw fail('notOffered', 404);
  }
  const passkey = await pk.findPasskeyByCredential(db, input.response.id);
  const owner = passkey && (ceremony.user_id === null || passkey.user_id === ceremony.user_id);
  const user = await repo.findUserForSignin(db, owner ? passkey.user_id : (ceremony.user_id ?? ''));
  const failed = async (failure: PasskeyFailure) => {
    const addressFor = await addressWait(db, input.ip, config.signin.ipLimitPerWindow, now);
    await repo.recordFailure(db, input.ip, user?.id ?? 'passkey');
    if (user && !user.disabled) {
      const lockUntil = new Date(now + config.signin.lockMinutes * 60_000);
      await repo.recordUserFailure(db, user.id, config.signin.maxFailures, lockUntil);
    }
    return addressFor ? fail('tooMany', 429, addressFor) : fail(failure);
  };
  if (!owner || !user || user.disabled) throw await failed('unknown');
  const lockedFor = lockWait(user.locked_until, now);
  if (lockedFor) throw fail('locked', 401, lockedFor);
  let newCounter: number | undefined;
  try {
    const verified = await verifyAuthenticationResponse({
      response: input.response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credential_id ?? '',
        publicKey: new Uint8Array(Buffer.from(passkey.public_key ?? '', 'base64url')),
        counter: Number(passkey.sign_count ?? 0),
        transports: transportsOf(passkey.transports),
      },
    });
    if (verified.verified) newCounter = verified.authenticationInfo.newCounter;
  } catch {
    newCounter = undefined;
  }
  // The counter moves forward once: a second use of the same count is a replay or a clone.
  if (newCounter === undefined || !(await pk.advanceSignCount(db, passkey.id, newCounter)))
    throw await failed('notVerified');
  if (user.email_confirmed_at === null)
    throw new HttpError(403, SIGNIN_FAILURE_TEXT.unconfirmed, 'unconfirmed');
  if (!(await isAllowedAddress(db, user, input.ip)))
    throw new HttpError(403, SIGNIN_FAILURE_TEXT.ipRange, 'ipRange');
  const session = await startSecondFactorSession(db, config, live, user.id, input, challengeId, 'passkey');
  // As after a code: only the second step remembers a browser (a passwordless sign-in has no password step to skip).
  if (!(challengeId && config.signin.rememberDevice && input.remember)) return session;
  return { ...session, device: await rememberDevice(db, user.id) };
}
