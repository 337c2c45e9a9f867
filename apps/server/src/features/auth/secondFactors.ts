import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  formatRecoveryCode,
  isRecoveryCode,
  isTimeBasedCode,
  normaliseSecondFactorCode,
  RECOVERY_CODE_COUNT,
  removalNeedsReauthentication,
  type SecondFactorList,
} from '@dossier/core';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { recordEvent } from '../../audit/events.js';
import type { Db, DbOrTrx, Trx } from '../../db/database.js';
import { loadSecret } from '../../files/signing.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { LiveHub } from '../../live/hub.js';
import { verifyPassword } from './passwords.js';
import * as repo from './repository.js';
import * as factors from './secondFactorRepository.js';
import { endUserSessions } from './sessions.js';

// Second factors (issue 35): code generators (RFC 6238, through otpauth) and recovery codes. The
// secrets are encrypted at rest with a key kept in app_secrets (shared by every instance); recovery
// codes are random, so their SHA-256 is enough. The sign-in's second step is secondStep.ts, the
// requirement by configuration enrolmentGuard.ts, passkeys passkeys.ts.

const KEY_NAME = 'second-factor-secrets';
const STEP_SECONDS = 30;
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
