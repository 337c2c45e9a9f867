import { phoneSearchTerm, type RoleGrant } from '@dossier/core';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import { scopeAtOrUnder } from '../../db/scopes.js';
import { likeContains, likeStartsWith } from '../../db/search.js';

// All SQL of user administration and of the account page.

/**
 * The policy's rule of managesUser (mayManageUser) as a condition on `users` rows, for lists
 * answered in SQL (a SCIM client's, which acts for an administrator of its configuration's scope):
 * the user's scope and the scope of every role it holds lie inside `scopes`. A user holding one
 * role elsewhere is not among them.
 */
export function manageableUsers(scopes: readonly string[]): RawBuilder<SqlBool> {
  const covered = (column: RawBuilder<unknown>): RawBuilder<SqlBool> => {
    if (scopes.includes('/')) return sql<SqlBool>`true`;
    if (scopes.length === 0) return sql<SqlBool>`false`;
    return sql<SqlBool>`(${sql.join(
      scopes.map((s) => scopeAtOrUnder(column, s)),
      sql` or `,
    )})`;
  };
  return sql<SqlBool>`(${covered(sql.ref('users.scope'))} and not exists (select 1 from user_roles as managed_role where managed_role.user_id = users.id and not ${covered(sql.ref('managed_role.scope'))}))`;
}

export async function findUser(db: DbOrTrx, id: string, forUpdate = false) {
  let query = db.selectFrom('users').selectAll().where('id', '=', id);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}
export type UserRow = NonNullable<Awaited<ReturnType<typeof findUser>>>;

export async function findRoles(db: DbOrTrx, userId: string): Promise<RoleGrant[]> {
  const rows = await db
    .selectFrom('user_roles')
    .select(['role', 'external_reference', 'scope'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    role: r.role,
    scope: r.scope,
    ...(r.external_reference === null ? {} : { externalReference: r.external_reference }),
  }));
}

/** The provider groups (SCIM) whose mapping grants the user each role it holds through a group. */
export function findRoleGroups(db: DbOrTrx, userId: string) {
  return db
    .selectFrom('scim_role_grants')
    .innerJoin('scim_groups', 'scim_groups.id', 'scim_role_grants.group_id')
    .select(['scim_role_grants.role', 'scim_role_grants.scope', 'scim_groups.display_name'])
    .where('scim_role_grants.user_id', '=', userId)
    .orderBy('scim_groups.display_name')
    .execute();
}

export async function userIdExists(db: DbOrTrx, id: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Another user with this e-mail address (case-insensitive), if any. */
export async function emailOwner(db: DbOrTrx, email: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return row?.id;
}

export interface UserColumns {
  name: string;
  email: string;
  phone: string;
  alternate_phone: string | null;
  scope: string;
  country: string | null;
  language: string | null;
  address: string | null;
  disabled: boolean;
  password_must_change: boolean;
  ip_range: string | null;
}

export async function insertUser(
  db: DbOrTrx,
  user: UserColumns & { id: string; password_hash: string | null; email_confirmed_at: Date | null },
) {
  await db.insertInto('users').values(user).execute();
}

/** Updates if `version` is still current; answers the new version, or undefined when stale. */
export async function updateUser(
  db: DbOrTrx,
  id: string,
  version: number,
  changes: Partial<UserColumns> & {
    password_hash?: string;
    locked_until?: null;
    failed_signins?: number;
    email_confirmed_at?: null;
    pending_email?: string | null;
  },
): Promise<number | undefined> {
  const row = await db
    .updateTable('users')
    .set({ ...changes, version: sql`version + 1`, updated_at: new Date() })
    .where('id', '=', id)
    .where('version', '=', version)
    .returning('version')
    .executeTakeFirst();
  return row?.version;
}

export async function addRoles(db: DbOrTrx, userId: string, grants: RoleGrant[]) {
  if (grants.length === 0) return;
  await db
    .insertInto('user_roles')
    .values(
      grants.map((g) => ({
        user_id: userId,
        role: g.role,
        scope: g.scope,
        external_reference: g.externalReference ?? null,
      })),
    )
    .execute();
}

export function removeRoles(db: DbOrTrx, userId: string, grants: RoleGrant[]) {
  return removeGrants(db, 'user_roles', userId, grants);
}

/** Deletes the user's grants from the granted roles or from the claims, matched in full. */
export async function removeGrants(
  db: DbOrTrx,
  table: 'user_roles' | 'role_claims',
  userId: string,
  grants: RoleGrant[],
) {
  for (const g of grants) {
    let query = db
      .deleteFrom(table)
      .where('user_id', '=', userId)
      .where('role', '=', g.role)
      .where('scope', '=', g.scope);
    query =
      g.externalReference === undefined
        ? query.where('external_reference', 'is', null)
        : query.where('external_reference', '=', g.externalReference);
    await query.execute();
  }
}

export interface UserSearch {
  name?: string | undefined;
  phone?: string | undefined;
  email?: string | undefined;
  scope?: string | undefined;
  externalUserReference?: string | undefined;
}

/** Users inside any of `visibleScopes` matching every given term, by name. */
export async function searchUsers(
  db: DbOrTrx,
  terms: UserSearch,
  visibleScopes: string[],
  offset: number,
  limit: number,
) {
  if (visibleScopes.length === 0) return { rows: [], total: 0 };
  let query = db
    .selectFrom('users')
    .where((eb) => eb.or(visibleScopes.map((s) => eb('scope', 'like', likeStartsWith(s)))));
  if (terms.name) query = query.where(sql`lower(name)`, 'like', likeContains(terms.name));
  if (terms.email) query = query.where(sql`lower(email)`, 'like', likeContains(terms.email));
  if (terms.phone) query = query.where('phone', 'like', likeContains(phoneSearchTerm(terms.phone)));
  if (terms.scope) query = query.where('scope', 'like', likeStartsWith(terms.scope));
  if (terms.externalUserReference) {
    const ref = terms.externalUserReference.trim().toLowerCase();
    query = query.where((eb) =>
      eb.or([
        eb('external_user_id', '=', terms.externalUserReference?.trim() ?? ''),
        eb.exists(
          eb
            .selectFrom('user_roles')
            .select('user_roles.id')
            .whereRef('user_roles.user_id', '=', 'users.id')
            .where(sql`lower(external_reference)`, '=', ref),
        ),
      ]),
    );
  }
  const [rows, count] = await Promise.all([
    query
      .select(['id', 'name', 'email', 'phone', 'scope', 'disabled', 'external_user_id'])
      .orderBy(sql`lower(name)`)
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The user of a token that was used already (a confirmation link opened a second time). */
export async function userOfUsedToken(db: DbOrTrx, id: string, purpose: string) {
  return db
    .selectFrom('account_tokens')
    .innerJoin('users', 'users.id', 'account_tokens.user_id')
    .select(['users.id', 'users.email_confirmed_at', 'users.pending_email'])
    .where('account_tokens.id', '=', id)
    .where('account_tokens.purpose', '=', purpose)
    .where('account_tokens.used_at', 'is not', null)
    .executeTakeFirst();
}

/** Confirms the address: a pending new one replaces the old, else the account's own is confirmed. */
export async function confirmEmail(db: DbOrTrx, userId: string) {
  await db
    .updateTable('users')
    .set({
      email: sql`coalesce(pending_email, email)`,
      pending_email: null,
      email_confirmed_at: sql`coalesce(email_confirmed_at, now())`,
      version: sql`version + 1`,
      updated_at: new Date(),
    })
    .where('id', '=', userId)
    .execute();
}

export async function setPendingEmail(db: DbOrTrx, userId: string, email: string | null) {
  await db.updateTable('users').set({ pending_email: email }).where('id', '=', userId).execute();
}

/** Ends a sign-in lock and its count of failures; the user's version is untouched. */
export async function clearSigninLock(db: DbOrTrx, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ locked_until: null, failed_signins: 0 })
    .where('id', '=', userId)
    .execute();
}

/** Ends the account's link to single sign-on (its external user id and who set it). */
export async function clearExternalUserId(db: DbOrTrx, userId: string) {
  await db
    .updateTable('users')
    .set({
      external_user_id: null,
      external_id_set_by: null,
      version: sql`version + 1`,
      updated_at: new Date(),
    })
    .where('id', '=', userId)
    .execute();
}

/**
 * Keeps the subject an administrator unlinked from linking by verified email again (single sign-on
 * reads this table at a first sign-in); the latest unlink of a subject is the one kept.
 */
export async function rememberUnlinkedSubject(db: DbOrTrx, subject: string, userId: string, by: string) {
  await db
    .insertInto('sso_unlinked_subjects')
    .values({ subject, user_id: userId, unlinked_by: by })
    .onConflict((oc) =>
      oc.column('subject').doUpdateSet({ user_id: userId, unlinked_by: by, unlinked_at: new Date() }),
    )
    .execute();
}
