import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

/** The user of an unused, unexpired token, without using it. */
export async function userOfValidToken(db: DbOrTrx, id: string, purpose: string) {
  return (
    db
      .selectFrom('account_tokens')
      .innerJoin('users', 'users.id', 'account_tokens.user_id')
      .select(['users.id', 'users.scope', 'users.disabled'])
      // No password yet: the link activates a new account rather than resetting a password.
      .select(sql<boolean>`users.password_hash is null`.as('firstPassword'))
      .where('account_tokens.id', '=', id)
      .where('account_tokens.purpose', '=', purpose)
      .where('account_tokens.used_at', 'is', null)
      .where('account_tokens.expires_at', '>', new Date())
      .executeTakeFirst()
  );
}

export function findUserForReset(db: DbOrTrx, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'phone', 'scope', 'disabled'])
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .executeTakeFirst();
}

/** The new password; a lockout and a pending must-change end with it (sessions: endUserSessions). */
export async function replacePassword(db: DbOrTrx, userId: string, passwordHash: string) {
  await db
    .updateTable('users')
    .set({
      password_hash: passwordHash,
      password_must_change: false,
      failed_signins: 0,
      locked_until: null,
      version: sql`version + 1`,
      updated_at: new Date(),
    })
    .where('id', '=', userId)
    .execute();
}
