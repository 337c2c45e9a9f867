import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

// The SQL of second factors, recovery codes and sign-ins waiting for their second step.

export function insertFactor(
  db: DbOrTrx,
  row: { id: string; userId: string; kind: string; name: string; secret: string },
) {
  return db
    .insertInto('second_factors')
    .values({ id: row.id, user_id: row.userId, kind: row.kind, name: row.name, secret: row.secret })
    .execute();
}

export function findFactor(db: DbOrTrx, userId: string, id: string) {
  return db
    .selectFrom('second_factors')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function confirmedFactors(db: DbOrTrx, userId: string) {
  return db
    .selectFrom('second_factors')
    .selectAll()
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is not', null)
    .orderBy('created_at')
    .execute();
}

/** The kinds of second factor each of these users holds (confirmed ones). */
export function factorKindsOf(db: DbOrTrx, userIds: readonly string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('second_factors')
    .select(['user_id', 'kind'])
    .distinct()
    .where('user_id', 'in', userIds)
    .where('confirmed_at', 'is not', null)
    .execute();
}

export function confirmFactor(db: DbOrTrx, id: string, name: string, step: number) {
  return db
    .updateTable('second_factors')
    .set({ confirmed_at: sql`now()`, name, last_used_step: step })
    .where('id', '=', id)
    .where('confirmed_at', 'is', null)
    .executeTakeFirst();
}

/** Takes the time step of a code once: false when it (or a later one) was already used. */
export async function takeStep(db: DbOrTrx, id: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('second_factors')
    .set({ last_used_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', String(step))]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export function deleteFactor(db: DbOrTrx, userId: string, id: string) {
  return db.deleteFrom('second_factors').where('user_id', '=', userId).where('id', '=', id).execute();
}

export async function deleteAllOf(db: DbOrTrx, userId: string): Promise<number> {
  const rows = await db.deleteFrom('second_factors').where('user_id', '=', userId).returning('id').execute();
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  // Without second factors, no device skips them any more.
  await db.deleteFrom('remembered_devices').where('user_id', '=', userId).execute();
  return rows.length;
}

/** Drops enrolments never confirmed, older than `before`, of this user. */
export function deleteStaleEnrolments(db: DbOrTrx, userId: string, before: Date) {
  return db
    .deleteFrom('second_factors')
    .where('user_id', '=', userId)
    .where('confirmed_at', 'is', null)
    .where('created_at', '<', before)
    .execute();
}

export async function replaceRecoveryCodes(db: DbOrTrx, userId: string, hashes: readonly string[]) {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
    .execute();
}

/** Spends a recovery code: false when it is unknown or already used. */
export async function useRecoveryCode(db: DbOrTrx, userId: string, hash: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function countRecoveryCodesLeft(db: DbOrTrx, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The user's sessions that had to enrol may do everything again. */
export function releaseEnrolmentSessions(db: DbOrTrx, userId: string) {
  return db
    .updateTable('sessions')
    .set({ must_enrol: false })
    .where('user_id', '=', userId)
    .where('must_enrol', '=', true)
    .execute();
}

export async function insertChallenge(
  db: DbOrTrx,
  id: string,
  userId: string,
  expiresAt: Date,
  sso: string | null = null,
) {
  await db.deleteFrom('signin_challenges').where('expires_at', '<', new Date()).execute();
  await db
    .insertInto('signin_challenges')
    .values({ id, user_id: userId, expires_at: expiresAt, sso })
    .execute();
}

export function findChallenge(db: DbOrTrx, id: string) {
  return db
    .selectFrom('signin_challenges')
    .select(['user_id', 'sso'])
    .where('id', '=', id)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
}

export function deleteChallenge(db: DbOrTrx, id: string) {
  return db.deleteFrom('signin_challenges').where('id', '=', id).execute();
}

export async function insertRememberedDevice(db: DbOrTrx, id: string, userId: string, expiresAt: Date) {
  await db.deleteFrom('remembered_devices').where('expires_at', '<', new Date()).execute();
  await db.insertInto('remembered_devices').values({ id, user_id: userId, expires_at: expiresAt }).execute();
}

/** Whether this device (the hash of its cookie) is remembered for this user and not expired. */
export async function isRememberedDevice(db: DbOrTrx, id: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('remembered_devices')
    .select('id')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return row !== undefined;
}

export function forgetDevicesOf(db: DbOrTrx, userId: string) {
  return db.deleteFrom('remembered_devices').where('user_id', '=', userId).execute();
}

export function deleteChallengesOf(db: DbOrTrx, userId: string) {
  return db.deleteFrom('signin_challenges').where('user_id', '=', userId).execute();
}
