import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db, DbOrTrx } from '../../db/database.js';
import { HttpError } from '../../http/errors.js';
import { REMEMBER_DEVICE_DAYS } from '../../http/session.js';
import type { LiveHub } from '../../live/hub.js';
import { mustEnrolSecondFactor } from './enrolmentGuard.js';
import { addressWait, lockWait, withRetry } from './limits.js';
import * as repo from './repository.js';
import * as factors from './secondFactorRepository.js';
import { checkSecondFactorCode, hasSecondFactor } from './secondFactors.js';
import { authenticate, type SigninInput, type SigninResult, sessionIdOf, startSession } from './service.js';
import { endUserSessions } from './sessions.js';

// The second step of a sign-in (issue 35): after the right password (or a single sign-on without
// the provider's second factor) a short-lived challenge, never a session, waits for a code or a
// passkey; a remembered browser skips it where the configuration offers that.

/** How long a password sign-in waits for its code. */
export const CHALLENGE_MINUTES = 5;

/** A provider's session that the session after the second step carries (single sign-on). */
export interface ProviderSession {
  idToken?: string | undefined;
  subject: string;
  sid?: string | undefined;
}

/**
 * After the right password (or a single sign-on without the provider's second factor): a challenge
 * that waits for the code; answers its cookie value.
 */
export async function beginChallenge(db: DbOrTrx, userId: string, sso?: ProviderSession): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await factors.insertChallenge(
    db,
    sessionIdOf(token),
    userId,
    new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
    sso ? JSON.stringify(sso) : null,
  );
  return token;
}

export type SecondStepFailure = 'expired' | 'invalidCode' | 'locked' | 'tooMany';

export const SECOND_STEP_FAILURE_TEXT: Record<SecondStepFailure, string> = {
  expired: 'The sign-in has expired. Please sign in again.',
  invalidCode: 'The code is not right.',
  locked: 'This account is temporarily locked after repeated failed sign-ins.',
  tooMany: 'Too many failed sign-ins from this address.',
};

/** The text of a failed second step, with when to try again where it makes the user wait. */
export function secondStepFailureMessage(failure: SecondStepFailure, retryAfterSeconds?: number): string {
  const text = SECOND_STEP_FAILURE_TEXT[failure];
  return failure === 'locked' || failure === 'tooMany' ? withRetry(text, retryAfterSeconds) : text;
}

/**
 * The second step: a right code turns the challenge into a session and ends the user's other
 * sessions; a wrong one counts toward the lockout like a wrong password.
 */
export async function completeChallenge(
  db: Db,
  config: Config,
  live: LiveHub | undefined,
  input: {
    challenge: string;
    code: string;
    ip: string;
    userAgent: string | null;
    previousToken?: string | undefined;
    /** Remember this browser for 30 days (honoured only where the configuration offers it). */
    remember?: boolean;
  },
): Promise<{ token: string; userId: string; device?: string }> {
  const fail = (failure: SecondStepFailure, status = 401, wait?: number) =>
    new HttpError(
      status,
      secondStepFailureMessage(failure, wait),
      failure,
      undefined,
      wait ? { 'retry-after': String(wait) } : undefined,
    );
  const challengeId = sessionIdOf(input.challenge);
  const now = Date.now();
  const challenge = await factors.findChallenge(db, challengeId);
  if (!challenge) throw fail('expired');
  const user = await repo.findUserForSignin(db, challenge.user_id);
  if (!user || user.disabled) throw fail('expired');
  const lockedFor = lockWait(user.locked_until, now);
  if (lockedFor) {
    await factors.deleteChallenge(db, challengeId);
    throw fail('locked', 401, lockedFor);
  }
  const right = await db.transaction().execute((trx) => checkSecondFactorCode(trx, user.id, input.code));
  if (!right) {
    // As with passwords, the address limit slows wrong codes only.
    const addressFor = await addressWait(db, input.ip, config.signin.ipLimitPerWindow, now);
    await repo.recordFailure(db, input.ip, user.id);
    await repo.recordUserFailure(
      db,
      user.id,
      config.signin.maxFailures,
      new Date(now + config.signin.lockMinutes * 60_000),
    );
    if (addressFor) throw fail('tooMany', 429, addressFor);
    throw fail('invalidCode');
  }
  const session = await startSecondFactorSession(db, config, live, user.id, input, challengeId);
  if (!(config.signin.rememberDevice && input.remember)) return session;
  return { ...session, device: await rememberDevice(db, user.id) };
}

/** Remembers this browser for the user: answers its cookie value (only its hash is kept). */
export async function rememberDevice(db: DbOrTrx, userId: string): Promise<string> {
  const device = randomBytes(32).toString('base64url');
  const until = new Date(Date.now() + REMEMBER_DEVICE_DAYS * 24 * 3_600_000);
  await factors.insertRememberedDevice(db, sessionIdOf(device), userId, until);
  return device;
}

/**
 * The session that ends a sign-in with a second factor (a code or a passkey): the waiting challenge
 * goes, failures are forgotten, and the user's other sessions end.
 */
export async function startSecondFactorSession(
  db: Db,
  config: Config,
  live: LiveHub | undefined,
  userId: string,
  client: { ip: string; userAgent: string | null; previousToken?: string | undefined },
  challengeId: string | undefined,
  authMethod: 'secondFactor' | 'passkey' = 'secondFactor',
): Promise<{ token: string; userId: string }> {
  return db.transaction().execute(async (trx) => {
    const waiting = challengeId ? await factors.findChallenge(trx, challengeId) : undefined;
    if (challengeId) await factors.deleteChallenge(trx, challengeId);
    await repo.clearFailures(trx, userId);
    await endUserSessions(trx, live, userId);
    const { ip, userAgent, previousToken } = client;
    const token = await startSession(
      trx,
      config,
      userId,
      {
        username: userId,
        password: '',
        ip,
        userAgent,
        previousToken,
      },
      { authMethod },
    );
    // Begun at the identity provider: signing out there too, and its sign-out ending this one.
    if (waiting?.sso)
      await repo.markSessionSso(trx, sessionIdOf(token), JSON.parse(waiting.sso) as ProviderSession);
    return { token, userId };
  });
}

/**
 * A password sign-in: a session, or (for a user with a second factor) a challenge that waits for
 * the code.
 */
export async function signInWithPassword(
  db: DbOrTrx,
  config: Config,
  input: SigninInput & { device?: string | undefined },
): Promise<SigninResult | AfterPassword> {
  const checked = await authenticate(db, config, input);
  if (!checked.ok) return checked;
  return afterRightPassword(db, config, checked.userId, input);
}

export type AfterPassword =
  | { ok: true; token: string; userId: string; mustEnrol?: boolean }
  | { ok: true; challenge: string; userId: string };

/**
 * What follows a right password, on the sign-in page and on every other page that signs in with
 * one (the change-password step): a challenge waiting for the code of a user with a second factor,
 * else a session, which may only enrol one where the user's roles require it.
 */
export async function afterRightPassword(
  db: DbOrTrx,
  config: Config,
  userId: string,
  input: SigninInput & { device?: string | undefined },
): Promise<AfterPassword> {
  if (await hasSecondFactor(db, userId)) {
    // A browser that passed the second step and asked to be remembered skips it for 30 days.
    const remembered =
      config.signin.rememberDevice &&
      input.device !== undefined &&
      (await factors.isRememberedDevice(db, sessionIdOf(input.device), userId));
    if (remembered) {
      const token = await startSession(db, config, userId, input, { authMethod: 'rememberedDevice' });
      return { ok: true, token, userId };
    }
    return { ok: true, challenge: await beginChallenge(db, userId), userId };
  }
  // A user whose roles require a second factor and who has none may only enrol one.
  const mustEnrol = await mustEnrolSecondFactor(db, userId);
  const token = await startSession(db, config, userId, input, { mustEnrol });
  return { ok: true, token, userId, ...(mustEnrol ? { mustEnrol } : {}) };
}
