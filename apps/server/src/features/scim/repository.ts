import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import { likeStartsWith } from '../../db/search.js';
import { manageableUsers } from '../users/index.js';

// All SQL of SCIM provisioning: client tokens, the users a client sees, groups, their members and
// the roles granted through them.

// ---- Tokens

export function findToken(db: DbOrTrx, tokenHash: string) {
  return db.selectFrom('scim_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function findTokenOfEntry(db: DbOrTrx, configurationId: string, entryId: string) {
  return db
    .selectFrom('scim_tokens')
    .select(['hint', 'created_at', 'created_by', 'last_used_at'])
    .where('configuration_id', '=', configurationId)
    .where('entry_id', '=', entryId)
    .executeTakeFirst();
}

/** Stores the entry's token, replacing the one it had (which stops working at once). */
export async function saveToken(
  db: DbOrTrx,
  token: { configurationId: string; entryId: string; tokenHash: string; hint: string; createdBy: string },
) {
  const values = {
    configuration_id: token.configurationId,
    entry_id: token.entryId,
    token_hash: token.tokenHash,
    hint: token.hint,
    created_by: token.createdBy,
    created_at: new Date(),
    last_used_at: null,
  };
  return db
    .insertInto('scim_tokens')
    .values(values)
    .onConflict((oc) =>
      oc.columns(['configuration_id', 'entry_id']).doUpdateSet({
        token_hash: values.token_hash,
        hint: values.hint,
        created_by: values.created_by,
        created_at: values.created_at,
        last_used_at: null,
      }),
    )
    .returning(['hint', 'created_at'])
    .executeTakeFirstOrThrow();
}

export async function touchToken(db: DbOrTrx, tokenHash: string, staleBefore: Date) {
  await db
    .updateTable('scim_tokens')
    .set({ last_used_at: new Date() })
    .where('token_hash', '=', tokenHash)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
    .execute();
}

// ---- Users

const USER_COLUMNS = [
  'id',
  'name',
  'email',
  'scope',
  'disabled',
  'external_user_id',
  'external_id_set_by',
  'scim_user_name',
  'scim_external_id',
  'scim_client',
  'version',
  'created_at',
  'updated_at',
] as const;

/**
 * Users a client of `scopePath` sees: those the user screens let an administrator of that scope
 * change (inside the scope, no role outside it), not deleted, not an API key's own user.
 */
function visibleUsers(db: DbOrTrx, scopePath: string) {
  return db
    .selectFrom('users')
    .where('scope', 'like', likeStartsWith(scopePath))
    .where(manageableUsers([scopePath]))
    .where('scim_deleted_at', 'is', null)
    .where('id', 'not like', 'api:%');
}

export function findUser(db: DbOrTrx, scopePath: string, id: string, forUpdate = false) {
  let query = visibleUsers(db, scopePath).select(USER_COLUMNS).where('id', '=', id);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}
export type ScimUserRow = NonNullable<Awaited<ReturnType<typeof findUser>>>;

/** A user's name towards SCIM: the provider's userName, or the user id for one made by hand. */
export const userNameSql = sql<string>`coalesce(scim_user_name, id)`;

export interface UserCondition {
  attribute: 'userName' | 'externalId' | 'email' | 'id';
  value: string;
}

/** One page of the visible users matching every condition of one of `anyOf` (none: all users). */
export async function listUsers(
  db: DbOrTrx,
  scopePath: string,
  anyOf: UserCondition[][],
  offset: number,
  limit: number,
) {
  let query = visibleUsers(db, scopePath);
  if (anyOf.length > 0)
    query = query.where((eb) =>
      eb.or(
        anyOf.map((all) =>
          eb.and(
            all.map((c) => {
              switch (c.attribute) {
                case 'userName':
                  return eb(sql`lower(${userNameSql})`, '=', c.value.toLowerCase());
                case 'externalId':
                  return eb('scim_external_id', '=', c.value);
                case 'email':
                  return eb(sql`lower(email)`, '=', c.value.toLowerCase());
                default:
                  return eb('id', '=', c.value);
              }
            }),
          ),
        ),
      ),
    );
  const [rows, count] = await Promise.all([
    limit === 0
      ? Promise.resolve([])
      : query.select(USER_COLUMNS).orderBy('created_at').orderBy('id').offset(offset).limit(limit).execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Who already holds this userName, user id, e-mail or external id (anywhere: they are global). */
export async function takenBy(
  db: DbOrTrx,
  input: {
    userName: string;
    email: string;
    externalUserId: string | null;
    exceptUserId?: string | undefined;
  },
) {
  let query = db
    .selectFrom('users')
    .select(['id', 'email', 'external_user_id', 'scim_user_name'])
    .where((eb) =>
      eb.or([
        eb(sql`lower(scim_user_name)`, '=', input.userName.toLowerCase()),
        eb.and([eb('scim_user_name', 'is', null), eb('id', '=', input.userName.toLowerCase())]),
        eb(sql`lower(email)`, '=', input.email.toLowerCase()),
        ...(input.externalUserId ? [eb('external_user_id', '=', input.externalUserId)] : []),
      ]),
    );
  if (input.exceptUserId) query = query.where('id', '<>', input.exceptUserId);
  return query.execute();
}

export async function userIdTaken(db: DbOrTrx, id: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export interface ScimUserColumns {
  name: string;
  email: string;
  disabled: boolean;
  scim_user_name: string;
  scim_external_id: string | null;
  external_user_id: string | null;
  external_id_set_by: string | null;
}

export async function insertUser(
  db: DbOrTrx,
  user: ScimUserColumns & { id: string; scope: string; scim_client: string },
) {
  await db
    .insertInto('users')
    .values({
      ...user,
      country: 'AU',
      language: 'en-au',
      password_hash: null,
      // The provider vouches for the address, as an administrator does.
      email_confirmed_at: new Date(),
    })
    .execute();
}

export async function updateUser(db: DbOrTrx, id: string, columns: Partial<ScimUserColumns>) {
  await db
    .updateTable('users')
    .set({ ...columns, version: sql`version + 1`, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** A user this client's scope deleted through SCIM, with this userName (as its id) or e-mail. */
export function findDeletedUser(db: DbOrTrx, scopePath: string, userName: string, email: string) {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('scope', 'like', likeStartsWith(scopePath))
    .where(manageableUsers([scopePath]))
    .where('scim_deleted_at', 'is not', null)
    .where((eb) =>
      eb.or([eb('id', '=', userName.toLowerCase()), eb(sql`lower(email)`, '=', email.toLowerCase())]),
    )
    .orderBy('scim_deleted_at', 'desc')
    .forUpdate()
    .executeTakeFirst();
}

export async function markProvisioned(db: DbOrTrx, id: string, client: string) {
  await db
    .updateTable('users')
    .set({ scim_deleted_at: null, scim_client: client })
    .where('id', '=', id)
    .execute();
}

/** SCIM's delete: the account stays (its history needs it), disabled and no longer provisioned. */
export async function markDeleted(db: DbOrTrx, id: string) {
  await db
    .updateTable('users')
    .set({
      disabled: true,
      scim_deleted_at: new Date(),
      scim_user_name: null,
      scim_external_id: null,
      external_user_id: null,
      external_id_set_by: null,
      version: sql`version + 1`,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

// ---- Groups

export function findGroup(db: DbOrTrx, client: string, id: string, forUpdate = false) {
  let query = db.selectFrom('scim_groups').selectAll().where('client', '=', client).where('id', '=', id);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}
export type ScimGroupRow = NonNullable<Awaited<ReturnType<typeof findGroup>>>;

export interface GroupCondition {
  attribute: 'displayName' | 'externalId' | 'id';
  value: string;
}

export async function listGroups(
  db: DbOrTrx,
  client: string,
  anyOf: GroupCondition[][],
  offset: number,
  limit: number,
) {
  let query = db.selectFrom('scim_groups').where('client', '=', client);
  if (anyOf.length > 0)
    query = query.where((eb) =>
      eb.or(
        anyOf.map((all) =>
          eb.and(
            all.map((c) =>
              c.attribute === 'displayName'
                ? eb(sql`lower(display_name)`, '=', c.value.toLowerCase())
                : c.attribute === 'externalId'
                  ? eb('external_id', '=', c.value)
                  : eb(sql`id::text`, '=', c.value),
            ),
          ),
        ),
      ),
    );
  const [rows, count] = await Promise.all([
    limit === 0
      ? Promise.resolve([])
      : query.selectAll().orderBy('created_at').orderBy('id').offset(offset).limit(limit).execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function groupNameTaken(db: DbOrTrx, client: string, name: string, exceptId?: string) {
  let query = db
    .selectFrom('scim_groups')
    .select('id')
    .where('client', '=', client)
    .where(sql`lower(display_name)`, '=', name.toLowerCase());
  if (exceptId) query = query.where('id', '<>', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export function insertGroup(
  db: DbOrTrx,
  group: { client: string; scope: string; display_name: string; external_id: string | null },
) {
  return db.insertInto('scim_groups').values(group).returningAll().executeTakeFirstOrThrow();
}

export async function updateGroup(
  db: DbOrTrx,
  id: string,
  columns: { display_name: string; external_id: string | null },
) {
  await db
    .updateTable('scim_groups')
    .set({ ...columns, version: sql`version + 1`, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function deleteGroup(db: DbOrTrx, id: string) {
  await db.deleteFrom('scim_groups').where('id', '=', id).execute();
}

/** The members of the groups that a client of `scopePath` sees (a member out of its reach is left out). */
export async function groupMembers(db: DbOrTrx, scopePath: string, groupIds: string[]) {
  if (groupIds.length === 0) return [];
  return db
    .selectFrom('scim_group_members')
    .innerJoin('users', 'users.id', 'scim_group_members.user_id')
    .select(['scim_group_members.group_id', 'users.id', 'users.name'])
    .where('scim_group_members.group_id', 'in', groupIds)
    .where(manageableUsers([scopePath]))
    .orderBy('users.id')
    .execute();
}

export async function groupsOfUsers(db: DbOrTrx, client: string, userIds: string[]) {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('scim_group_members')
    .innerJoin('scim_groups', 'scim_groups.id', 'scim_group_members.group_id')
    .select(['scim_group_members.user_id', 'scim_groups.id', 'scim_groups.display_name'])
    .where('scim_groups.client', '=', client)
    .where('scim_group_members.user_id', 'in', userIds)
    .orderBy('scim_groups.display_name')
    .execute();
}

/**
 * Everyone the client's groups hold or granted a role to, and whom a client of `scopePath` reaches:
 * whose group roles a new mapping may change.
 */
export async function usersOfClientGroups(db: DbOrTrx, client: string, scopePath: string): Promise<string[]> {
  const rows = await db
    .selectFrom('scim_group_members')
    .innerJoin('scim_groups', 'scim_groups.id', 'scim_group_members.group_id')
    .innerJoin('users', 'users.id', 'scim_group_members.user_id')
    .select('scim_group_members.user_id')
    .where('scim_groups.client', '=', client)
    .where(manageableUsers([scopePath]))
    .union(
      db
        .selectFrom('scim_role_grants')
        .innerJoin('scim_groups', 'scim_groups.id', 'scim_role_grants.group_id')
        .innerJoin('users', 'users.id', 'scim_role_grants.user_id')
        .select('scim_role_grants.user_id')
        .where('scim_groups.client', '=', client)
        .where(manageableUsers([scopePath])),
    )
    .execute();
  return rows.map((r) => r.user_id).sort();
}

export async function addMembers(db: DbOrTrx, groupId: string, userIds: string[]) {
  if (userIds.length === 0) return;
  await db
    .insertInto('scim_group_members')
    .values(userIds.map((user_id) => ({ group_id: groupId, user_id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function removeMembers(db: DbOrTrx, groupId: string, userIds: string[]) {
  if (userIds.length === 0) return;
  await db
    .deleteFrom('scim_group_members')
    .where('group_id', '=', groupId)
    .where('user_id', 'in', userIds)
    .execute();
}

export async function removeUserFromGroups(db: DbOrTrx, userId: string) {
  await db.deleteFrom('scim_group_members').where('user_id', '=', userId).execute();
}

// ---- Roles granted through groups

/** The roles the client's groups granted the user. */
export function roleGrantsOf(db: DbOrTrx, client: string, userId: string) {
  return db
    .selectFrom('scim_role_grants')
    .innerJoin('scim_groups', 'scim_groups.id', 'scim_role_grants.group_id')
    .select(['scim_role_grants.group_id', 'scim_role_grants.role', 'scim_role_grants.scope'])
    .where('scim_groups.client', '=', client)
    .where('scim_role_grants.user_id', '=', userId)
    .execute();
}

export function rolesOf(db: DbOrTrx, userId: string) {
  return db
    .selectFrom('user_roles')
    .select(['role', 'scope', 'external_reference'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** Grants a role for a group; the role row is made (marked as SCIM's) unless the user holds it. */
export async function grantRole(
  db: DbOrTrx,
  g: { groupId: string; userId: string; role: string; scope: string },
) {
  await db
    .insertInto('user_roles')
    .values({
      user_id: g.userId,
      role: g.role,
      scope: g.scope,
      external_reference: null,
      granted_by_scim: true,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db
    .insertInto('scim_role_grants')
    .values({ group_id: g.groupId, user_id: g.userId, role: g.role, scope: g.scope })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Takes back a group's grant; the role goes only when SCIM made it and no other group grants it. */
export async function revokeRole(
  db: DbOrTrx,
  g: { groupId: string; userId: string; role: string; scope: string },
) {
  await db
    .deleteFrom('scim_role_grants')
    .where('group_id', '=', g.groupId)
    .where('user_id', '=', g.userId)
    .where('role', '=', g.role)
    .where('scope', '=', g.scope)
    .execute();
  await db
    .deleteFrom('user_roles')
    .where('user_id', '=', g.userId)
    .where('role', '=', g.role)
    .where('scope', '=', g.scope)
    .where('external_reference', 'is', null)
    .where('granted_by_scim', '=', true)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('scim_role_grants')
            .select('scim_role_grants.user_id')
            .where('scim_role_grants.user_id', '=', g.userId)
            .where('scim_role_grants.role', '=', g.role)
            .where('scim_role_grants.scope', '=', g.scope),
        ),
      ),
    )
    .execute();
}
