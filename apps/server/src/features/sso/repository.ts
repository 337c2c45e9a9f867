import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

export async function insertLogin(
  db: DbOrTrx,
  login: { state: string; codeVerifier: string; nonce: string; returnUrl: string },
) {
  await db
    .insertInto('sso_logins')
    .values({
      state: login.state,
      code_verifier: login.codeVerifier,
      nonce: login.nonce,
      return_url: login.returnUrl,
    })
    .execute();
}

/** Takes a login in flight out of the table: each state can be used once, within ten minutes. */
export function takeLogin(db: DbOrTrx, state: string) {
  return db
    .deleteFrom('sso_logins')
    .where('state', '=', state)
    .where('created_at', '>', new Date(Date.now() - 10 * 60_000))
    .returning(['code_verifier', 'nonce', 'return_url'])
    .executeTakeFirst();
}

export function findUserByExternalId(db: DbOrTrx, externalId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'disabled'])
    .where('external_user_id', '=', externalId)
    .executeTakeFirst();
}

/** Whether an administrator unlinked this subject from its user (and nobody linked it since). */
export async function isUnlinkedSubject(db: DbOrTrx, subject: string): Promise<boolean> {
  const row = await db
    .selectFrom('sso_unlinked_subjects')
    .select('subject')
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row !== undefined;
}

/** The active user with this email (case-insensitive) that no single sign-on account is linked to. */
export function findUnlinkedUserByEmail(db: DbOrTrx, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'scope'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where('external_user_id', 'is', null)
    .where('disabled', '=', false)
    .executeTakeFirst();
}

/** Links the user to the provider's subject, unless something linked it meanwhile; true if linked. */
export async function linkExternalId(db: DbOrTrx, userId: string, subject: string, setBy: string) {
  const result = await db
    .updateTable('users')
    .set({
      external_user_id: subject,
      external_id_set_by: setBy,
      version: sql`version + 1`,
      updated_at: new Date(),
    })
    .where('id', '=', userId)
    .where('external_user_id', 'is', null)
    // Nor when an administrator unlinked the subject meanwhile.
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('sso_unlinked_subjects').select('subject').where('subject', '=', subject))),
    )
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function purgeOldLogins(db: DbOrTrx): Promise<void> {
  await db
    .deleteFrom('sso_logins')
    .where('created_at', '<', new Date(Date.now() - 3_600_000))
    .execute();
}

/** Keeps with a session begun through single sign-on what ending it at the provider needs. */
export async function markSsoSession(
  db: DbOrTrx,
  sessionId: string,
  sso: { idToken: string | undefined; subject: string; sid: string | undefined },
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ sso_id_token: sso.idToken ?? null, sso_subject: sso.subject, sso_sid: sso.sid ?? null })
    .where('id', '=', sessionId)
    .execute();
}

export function findSsoIdToken(db: DbOrTrx, sessionId: string) {
  return db
    .selectFrom('sessions')
    .select('sso_id_token')
    .where('id', '=', sessionId)
    .where('sso_id_token', 'is not', null)
    .executeTakeFirst();
}

/**
 * Deletes the sessions a back-channel logout names: those of the provider session `sid` when it is
 * given (of the subject too, when both are), else every session of the subject's user, however begun.
 * Answers the ids it deleted.
 */
export async function deleteSessionsOfProvider(
  db: DbOrTrx,
  logout: { subject: string | undefined; sid: string | undefined },
): Promise<string[]> {
  let query = db.deleteFrom('sessions');
  if (logout.sid) {
    query = query.where('sso_sid', '=', logout.sid);
    if (logout.subject) query = query.where('sso_subject', '=', logout.subject);
  } else if (logout.subject) {
    const subject = logout.subject;
    query = query.where((eb) =>
      eb.or([
        eb('sso_subject', '=', subject),
        eb('user_id', 'in', eb.selectFrom('users').select('id').where('external_user_id', '=', subject)),
      ]),
    );
  } else return [];
  const rows = await query.returning('id').execute();
  return rows.map((r) => r.id);
}

/**
 * Records the `jti` of a back-channel logout token as used; false when it was used before (a
 * replay). The row is kept until the token could no longer pass its checks anyway.
 */
export async function useLogoutToken(db: DbOrTrx, jti: string, expiresAt: Date): Promise<boolean> {
  const row = await db
    .insertInto('sso_logout_tokens')
    .values({ jti, expires_at: expiresAt })
    .onConflict((oc) => oc.column('jti').doNothing())
    .returning('jti')
    .executeTakeFirst();
  return row !== undefined;
}

export async function purgeExpiredLogoutTokens(db: DbOrTrx, before: Date): Promise<void> {
  await db.deleteFrom('sso_logout_tokens').where('expires_at', '<', before).execute();
}

/** The active administrators of the whole service (the admin role at `/`) with their addresses. */
export function findServiceAdministrators(db: DbOrTrx) {
  return db
    .selectFrom('users')
    .select(['users.id', 'users.name', 'users.email'])
    .where('users.disabled', '=', false)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('user_roles')
          .select('user_roles.id')
          .whereRef('user_roles.user_id', '=', 'users.id')
          .where('user_roles.role', '=', 'c:roles:admin')
          .where('user_roles.scope', '=', '/'),
      ),
    )
    .orderBy('users.id')
    .execute();
}
