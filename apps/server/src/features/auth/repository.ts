import type { AuthMethod } from '@dossier/core';
import { sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { DbOrTrx } from '../../db/database.js';

export function findUserForSignin(db: DbOrTrx, username: string) {
  const name = username.trim().toLowerCase();
  return (
    db
      .selectFrom('users')
      .select([
        'id',
        'password_hash',
        'disabled',
        'locked_until',
        'failed_signins',
        'email_confirmed_at',
        'password_must_change',
        'ip_range',
        'scope',
      ])
      .where((eb) => eb.or([eb('id', '=', name), eb(sql`lower(email)`, '=', name)]))
      // Names are kept unambiguous on save; should two accounts still match, the user id wins.
      .orderBy(sql`id = ${name}`, 'desc')
      .executeTakeFirst()
  );
}

/**
 * When the address has failed `limit` times since `since`: the time of the oldest of those last
 * `limit` failures (the address is over its limit until it leaves the window); else undefined.
 */
export async function limitingFailureFromIp(
  db: DbOrTrx,
  ip: string,
  limit: number,
  since: Date,
): Promise<Date | undefined> {
  const row = await db
    .selectFrom('signin_failures')
    .select('failed_at')
    .where('ip', '=', ip)
    .where('failed_at', '>', since)
    .orderBy('failed_at', 'desc')
    .offset(Math.max(0, limit - 1))
    .limit(1)
    .executeTakeFirst();
  return row ? new Date(row.failed_at) : undefined;
}

export async function recordFailure(db: DbOrTrx, ip: string, username: string): Promise<void> {
  await db
    .insertInto('signin_failures')
    .values({ ip, username: username.slice(0, 200) })
    .execute();
}

/** Counts a failed password; at the limit the account is locked until `lockUntil`. */
export async function recordUserFailure(db: DbOrTrx, userId: string, maxFailures: number, lockUntil: Date) {
  await db
    .updateTable('users')
    .set((eb) => ({
      failed_signins: sql`case when ${eb.ref('failed_signins')} + 1 >= ${maxFailures} then 0 else ${eb.ref('failed_signins')} + 1 end`,
      locked_until: sql`case when ${eb.ref('failed_signins')} + 1 >= ${maxFailures} then ${lockUntil}::timestamptz else ${eb.ref('locked_until')} end`,
    }))
    .where('id', '=', userId)
    .execute();
}

export async function clearFailures(db: DbOrTrx, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ failed_signins: 0, locked_until: null })
    .where('id', '=', userId)
    .execute();
}

export async function insertSession(
  db: DbOrTrx,
  session: {
    id: string;
    userId: string;
    expiresAt: Date;
    ip: string;
    userAgent: string | null;
    mustEnrol?: boolean;
    authMethod?: AuthMethod;
  },
) {
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: session.userId,
      expires_at: session.expiresAt,
      ip: session.ip,
      user_agent: session.userAgent,
      must_enrol: session.mustEnrol ?? false,
      auth_method: session.authMethod ?? 'password',
    })
    .execute();
}

/** Marks a session as begun at the identity provider: what signing out there will need. */
export async function markSessionSso(
  db: DbOrTrx,
  id: string,
  sso: { idToken?: string | undefined; subject: string; sid?: string | undefined },
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ sso_id_token: sso.idToken ?? null, sso_subject: sso.subject, sso_sid: sso.sid ?? null })
    .where('id', '=', id)
    .execute();
}

export async function deleteSession(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Deletes the user's sessions but `keep`; answers the ids it deleted. */
export async function deleteUserSessions(db: DbOrTrx, userId: string, keep?: string): Promise<string[]> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep) query = query.where('id', '!=', keep);
  const rows = await query.returning('id').execute();
  return rows.map((r) => r.id);
}

/** The session with its user, if it is neither expired nor idle too long and the user may sign in. */
// The session with its user and the user's roles in one round trip: it runs on every request.
export function findLiveSession(db: DbOrTrx, id: string, idleSince: Date) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select((eb) => [
      'sessions.id as sessionId',
      'sessions.last_seen_at as lastSeenAt',
      'sessions.expires_at as expiresAt',
      'sessions.must_enrol as mustEnrol',
      'sessions.auth_method as authMethod',
      'users.id',
      'users.name',
      'users.email',
      'users.scope',
      'users.language',
      'users.country',
      'users.password_must_change as passwordMustChange',
      jsonArrayFrom(
        eb
          .selectFrom('user_roles')
          .select(['user_roles.role', 'user_roles.external_reference', 'user_roles.scope'])
          .whereRef('user_roles.user_id', '=', 'users.id')
          .orderBy('user_roles.id'),
      ).as('roles'),
    ])
    .where('sessions.id', '=', id)
    .where('sessions.expires_at', '>', new Date())
    .where('sessions.last_seen_at', '>', idleSince)
    .where('users.disabled', '=', false)
    .executeTakeFirst();
}

export function findRoles(db: DbOrTrx, userId: string) {
  return db
    .selectFrom('user_roles')
    .select(['role', 'external_reference', 'scope'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/**
 * Raw SQL on purpose: a write built with Kysely to sessions makes every session cache forget
 * (db/sessionWrites.ts), and moving last_seen_at forward changes nothing a cached actor holds.
 */
export async function touchSession(db: DbOrTrx, id: string): Promise<void> {
  await sql`update sessions set last_seen_at = ${new Date()} where id = ${id}`.execute(db);
}

export async function deleteExpired(db: DbOrTrx, idleSince: Date, failuresBefore: Date): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', new Date()), eb('last_seen_at', '<', idleSince)]))
    .execute();
  await db.deleteFrom('signin_failures').where('failed_at', '<', failuresBefore).execute();
}
