import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  formatRecoveryCode,
  grantsNeedSecondFactor,
  isRecoveryCode,
  isTimeBasedCode,
  normaliseSecondFactorCode,
  RECOVERY_CODE_COUNT,
  removalNeedsReauthentication,
  type SecondFactorList,
} from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { recordEvent } from '../../audit/events.js';
import type { Config } from '../../config.js';
import type { Db, DbOrTrx, Trx } from '../../db/database.js';
import { loadSecret } from '../../files/signing.js';
import { badRequest, HttpError, notFound } from '../../http/errors.js';
import { REMEMBER_DEVICE_DAYS } from '../../http/session.js';
import { wantsJson } from '../../http/views.js';
import type { LiveHub } from '../../live/hub.js';
import { addressWait, lockWait, withRetry } from './limits.js';
import { verifyPassword } from './passwords.js';
import * as repo from './repository.js';
import * as factors from './secondFactorRepository.js';
import { authenticate, type SigninInput, type SigninResult, sessionIdOf, startSession } from './service.js';
import { endUserSessions } from './sessions.js';

// Second factors (issue 35): code generators (RFC 6238, through otpauth) and recovery codes. The
// secrets are encrypted at rest with a key kept in app_secrets (shared by every instance); recovery
// codes are random, so their SHA-256 is enough. A sign-in with a second factor waits, after the
// password, in a short-lived challenge that is never a session.

const KEY_NAME = 'second-factor-secrets';
const STEP_SECONDS = 30;
/** How long a password sign-in waits for its code. */
export const CHALLENGE_MINUTES = 5;
/** An enrolment never confirmed is dropped after this long. */
const ENROLMENT_HOURS = 1;
const ISSUER = 'Dossier';

async function encrypt(db: DbOrTrx, plain: string): Promise<string> {
  const key = await loadSecret(db, KEY_NAME);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

async function decrypt(db: DbOrTrx, stored: string): Promise<string> {
  const key = await loadSecret(db, KEY_NAME);
  const [iv = '', tag = '', body = ''] = stored.split('.');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

function totpOf(secret: string, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: STEP_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/** The time step a code belongs to (one step of clock drift either way), or undefined. */
export function stepOfCode(secret: string, code: string, now = Date.now()): number | undefined {
  if (!isTimeBasedCode(code)) return undefined;
  const delta = totpOf(secret, '').validate({
    token: normaliseSecondFactorCode(code),
    timestamp: now,
    window: 1,
  });
  return delta === null ? undefined : Math.floor(now / 1000 / STEP_SECONDS) + delta;
}

export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normaliseSecondFactorCode(code)).digest('base64url');
}

function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    return formatRecoveryCode(Array.from(bytes, (b) => alphabet[b % alphabet.length]).join(''));
  });
}

async function issueRecoveryCodes(db: DbOrTrx, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await factors.replaceRecoveryCodes(db, userId, codes.map(hashRecoveryCode));
  return codes;
}

export async function hasSecondFactor(db: DbOrTrx, userId: string): Promise<boolean> {
  return (await factors.confirmedFactors(db, userId)).length > 0;
}

/** The kinds of second factor each user holds; a user without one is absent. */
export async function secondFactorKinds(db: DbOrTrx, userIds: readonly string[]) {
  const kinds = new Map<string, string[]>();
  for (const row of await factors.factorKindsOf(db, userIds)) {
    kinds.set(row.user_id, [...(kinds.get(row.user_id) ?? []), row.kind]);
  }
  return kinds;
}

export async function listSecondFactors(db: DbOrTrx, userId: string): Promise<SecondFactorList> {
  const rows = await factors.confirmedFactors(db, userId);
  return {
    factors: rows.map((r) => ({
      id: r.id,
      name: r.name,
      kind: r.kind === 'passkey' ? ('passkey' as const) : ('totp' as const),
      addedAt: (r.confirmed_at ?? r.created_at).toISOString(),
    })),
    recoveryCodesLeft: rows.length > 0 ? await factors.countRecoveryCodesLeft(db, userId) : 0,
  };
}

/** Begins enrolling a code generator: its secret, the otpauth URI and the URI as a QR image. */
export async function beginEnrolment(db: DbOrTrx, user: { id: string; email: string }) {
  await factors.deleteStaleEnrolments(db, user.id, new Date(Date.now() - ENROLMENT_HOURS * 3_600_000));
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  const id = randomUUID();
  await factors.insertFactor(db, {
    id,
    userId: user.id,
    kind: 'totp',
    name: '',
    secret: await encrypt(db, secret),
  });
  const uri = totpOf(secret, user.email || user.id).toString();
  return { id, secret, uri, qr: await QRCode.toDataURL(uri, { margin: 1, width: 220 }) };
}

const WRONG_CODE = 'The code is not right.';

/** Confirms an enrolment with a first code and names it; the first factor brings recovery codes. */
export async function confirmEnrolment(
  db: Db,
  live: LiveHub | undefined,
  actor: { id: string; sessionId?: string | undefined },
  input: { factorId: string; name: string; code: string },
) {
  return db.transaction().execute(async (trx) => {
    const factor = await factors.findFactor(trx, actor.id, input.factorId);
    if (!factor || factor.confirmed_at !== null) throw notFound('No such enrolment.');
    const step = stepOfCode(await decrypt(trx, factor.secret), input.code);
    if (step === undefined) throw badRequest(WRONG_CODE, { code: WRONG_CODE });
    const first = !(await hasSecondFactor(trx, actor.id));
    await factors.confirmFactor(trx, factor.id, input.name, step);
    const recoveryCodes = await afterFactorAdded(trx, live, actor, `${input.name} (totp)`, first);
    return { recoveryCodes };
  });
}

/**
 * What follows a confirmed second factor: recovery codes with the first one, the history, the end
 * of the user's other sessions, and the release of sessions held at enrolment.
 */
export async function afterFactorAdded(
  trx: Trx,
  live: LiveHub | undefined,
  actor: { id: string; sessionId?: string | undefined },
  label: string,
  first: boolean,
): Promise<string[] | null> {
  const recoveryCodes = first ? await issueRecoveryCodes(trx, actor.id) : null;
  await recordEvent(trx, {
    type: 'secondFactorAdded',
    aggregateType: 'user',
    aggregateId: actor.id,
    actor: actor.id,
    payload: { changes: { secondFactor: { from: null, to: label } } },
  });
  await endUserSessions(trx, live, actor.id, actor.sessionId);
  await factors.releaseEnrolmentSessions(trx, actor.id);
  return recoveryCodes;
}

/**
 * Checks a code against the user's second factors: a code generator's code whose step was not used
 * yet, or an unused recovery code, which is spent.
 */
export async function checkSecondFactorCode(db: DbOrTrx, userId: string, code: string): Promise<boolean> {
  if (isTimeBasedCode(code)) {
    for (const factor of await factors.confirmedFactors(db, userId)) {
      if (factor.kind !== 'totp') continue;
      const step = stepOfCode(await decrypt(db, factor.secret), code);
      if (step !== undefined) return factors.takeStep(db, factor.id, step);
    }
    return false;
  }
  if (isRecoveryCode(code)) return factors.useRecoveryCode(db, userId, hashRecoveryCode(code));
  return false;
}

/** Removes a second factor; the last one needs the current password and a code. */
export async function removeSecondFactor(
  db: Db,
  live: LiveHub | undefined,
  actor: { id: string; sessionId?: string | undefined },
  input: { factorId: string; password?: string | undefined; code?: string | undefined },
) {
  return db.transaction().execute(async (trx) => {
    const factor = await factors.findFactor(trx, actor.id, input.factorId);
    if (!factor || factor.confirmed_at === null) throw notFound('No such second factor.');
    const all = await factors.confirmedFactors(trx, actor.id);
    const last = removalNeedsReauthentication(all.length);
    if (last) {
      const fields: Record<string, string> = {};
      const user = await repo.findUserForSignin(trx, actor.id);
      if (!input.password) fields.password = 'Password is required.';
      else if (!(await verifyPassword(user?.password_hash ?? null, input.password)))
        fields.password = 'The password is not right.';
      if (!input.code) fields.code = 'Code is required.';
      else if (!(await checkSecondFactorCode(trx, actor.id, input.code))) fields.code = WRONG_CODE;
      const first = Object.values(fields)[0];
      if (first) throw badRequest(first, fields);
    }
    await factors.deleteFactor(trx, actor.id, factor.id);
    if (last) await factors.deleteAllOf(trx, actor.id);
    await recordEvent(trx, {
      type: 'secondFactorRemoved',
      aggregateType: 'user',
      aggregateId: actor.id,
      actor: actor.id,
      payload: { changes: { secondFactor: { from: `${factor.name} (${factor.kind})`, to: null } } },
    });
    await endUserSessions(trx, live, actor.id, actor.sessionId);
    return { ok: true as const };
  });
}

/** Ten new recovery codes for a user with a second factor, proven by a current code. */
export async function regenerateRecoveryCodes(db: Db, actor: { id: string }, code: string) {
  return db.transaction().execute(async (trx) => {
    if (!(await hasSecondFactor(trx, actor.id))) throw badRequest('Add a code generator first.');
    if (!(await checkSecondFactorCode(trx, actor.id, code)))
      throw badRequest(WRONG_CODE, { code: WRONG_CODE });
    return { recoveryCodes: await issueRecoveryCodes(trx, actor.id) };
  });
}

/** An administrator's reset: every second factor and recovery code of the user goes, and every session. */
export async function resetSecondFactors(
  db: Trx,
  live: LiveHub | undefined,
  userId: string,
  actorId: string,
): Promise<number> {
  const removed = await factors.deleteAllOf(db, userId);
  await factors.deleteChallengesOf(db, userId);
  await recordEvent(db, {
    type: 'secondFactorsReset',
    aggregateType: 'user',
    aggregateId: userId,
    actor: actorId,
    payload: { changes: { secondFactors: { from: removed, to: 0 } } },
  });
  await endUserSessions(db, live, userId);
  return removed;
}

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
async function rememberDevice(db: DbOrTrx, userId: string): Promise<string> {
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
): Promise<
  | SigninResult
  | { ok: true; token: string; userId: string; mustEnrol?: boolean }
  | { ok: true; challenge: string; userId: string }
> {
  const checked = await authenticate(db, config, input);
  if (!checked.ok) return checked;
  if (await hasSecondFactor(db, checked.userId)) {
    // A browser that passed the second step and asked to be remembered skips it for 30 days.
    const remembered =
      config.signin.rememberDevice &&
      input.device !== undefined &&
      (await factors.isRememberedDevice(db, sessionIdOf(input.device), checked.userId));
    if (remembered) {
      const token = await startSession(db, config, checked.userId, input, { authMethod: 'rememberedDevice' });
      return { ok: true, token, userId: checked.userId };
    }
    return { ok: true, challenge: await beginChallenge(db, checked.userId), userId: checked.userId };
  }
  // A user whose roles require a second factor and who has none may only enrol one.
  const mustEnrol = await mustEnrolSecondFactor(db, checked.userId);
  const token = await startSession(db, config, checked.userId, input, { mustEnrol });
  return { ok: true, token, userId: checked.userId, ...(mustEnrol ? { mustEnrol } : {}) };
}

/** The second-factor requirements of a scope and the scopes above it (the configuration's, wired in app.ts). */
export type SecondFactorRequirements = (
  db: DbOrTrx,
  scopePath: string,
) => Promise<readonly { scopePath: string; secondFactorRoles: readonly string[] }[]>;

let requirementsAt: SecondFactorRequirements | undefined;

/** The requirements live in the configuration, which builds on this feature: the app wires them in. */
export function useSecondFactorRequirements(lookup: SecondFactorRequirements): void {
  requirementsAt = lookup;
}

/** Whether one of the user's role grants falls under a scope's requirement of a second factor. */
export async function mustEnrolSecondFactor(db: DbOrTrx, userId: string): Promise<boolean> {
  if (!requirementsAt) return false;
  const grants = await repo.findRoles(db, userId);
  for (const grant of grants) {
    if (grantsNeedSecondFactor([grant], await requirementsAt(db, grant.scope))) return true;
  }
  return false;
}

/** What a session that must enrol may still reach: the enrolment, the account page, signing out. */
const ENROLMENT_PATHS = [
  /^GET \/account$/,
  /^(GET|POST) \/account\/second-factors$/,
  /^POST \/account\/second-factors\/[^/]+\/confirm$/,
  /^POST \/account\/passkeys(\/options)?$/,
  /^POST \/signout$/,
  /^GET \/signin$/,
  /^GET \/(assets|fonts)\//,
  /^GET \/(healthz|readyz|favicon\.ico|favicon\.svg)$/,
];

export const ENROLMENT_REQUIRED =
  'Your role requires a second factor: add a code generator or a passkey first.';

/**
 * Server-enforced: a session that must enrol a second factor reaches nothing but the enrolment.
 * A page is redirected to the account page; any other call is refused with 403.
 */
export function installEnrolmentGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request, reply) => {
    if (!request.actor?.mustEnrol) return;
    const [path = ''] = request.url.split('?');
    if (ENROLMENT_PATHS.some((allowed) => allowed.test(`${request.method} ${path}`))) return;
    if (request.method === 'GET' && !wantsJson(request)) return reply.redirect('/account', 303);
    return reply.status(403).send({ message: ENROLMENT_REQUIRED, code: 'secondFactorRequired' });
  });
}
