import { type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

// Who may be named as a request's submitter (the sender edit's on-behalf-of picker and its save).

/** Whether the user holds, enabled, the submitter or administrator role at the scope or above. */
export function isSubmitterOf(db: DbOrTrx, userId: string, scope: string): Promise<boolean> {
  return db
    .selectFrom('user_roles as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select('r.id')
    .where('r.user_id', '=', userId)
    .where('u.disabled', '=', false)
    .where('r.role', 'in', ['c:roles:submitter', 'c:roles:admin'])
    .where(sql<SqlBool>`left(${scope}::text, length(r.scope)) = r.scope`)
    .executeTakeFirst()
    .then((r) => r !== undefined);
}

/**
 * The choices of the sender edit's on-behalf-of picker: enabled users holding the submitter role
 * at the request's organisation or above it (those the save accepts), by name.
 */
export function listSubmitterChoices(db: DbOrTrx, scope: string): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('user_roles as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['u.id', 'u.name'])
    .distinct()
    .where('u.disabled', '=', false)
    .where('r.role', '=', 'c:roles:submitter')
    .where(sql<SqlBool>`left(${scope}::text, length(r.scope)) = r.scope`)
    .orderBy('u.name')
    .orderBy('u.id')
    .limit(500)
    .execute();
}
