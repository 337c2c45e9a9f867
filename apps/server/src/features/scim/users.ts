import { USER_ID_MAX_LENGTH, validateUserId } from '@dossier/core';
import { diffRecords, recordEvent } from '../../audit/events.js';
import type { Db, DbOrTrx, Trx } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { LiveHub } from '../../live/hub.js';
import { settleDisabledUser } from '../users/index.js';
import { scimNotFound, uniqueness } from './errors.js';
import { parseFilter, USER_FILTER_ATTRIBUTES } from './filter.js';
import { recordMembership, syncUserRoles } from './groupRoles.js';
import { applyPatch } from './patch.js';
import * as repo from './repository.js';
import { listResponse, readUserBody, type UserInput, userResource } from './resources.js';
import type { ScimClient } from './tokens.js';

// The Users endpoint: one use case per function. A client sees the users inside its scope path;
// a user elsewhere is answered as unknown (404). The provider's `sub` (externalId or userName, as the
// client's entry says) becomes the external user id single sign-on matches. Disabling (active:
// false) and deleting sign the user out on every instance and hand its open tasks on; deleting
// keeps the account, disabled, for the audit trail, and frees its userName and external id.

export interface ScimEffects {
  live?: LiveHub;
  jobs?: JobQueue | undefined;
  baseUrl: string;
}

export interface Paging {
  filter?: string | undefined;
  startIndex?: number | undefined;
  count?: number | undefined;
}

export const DEFAULT_COUNT = 100;
export const MAX_COUNT = 500;

async function resourceOf(db: DbOrTrx, client: ScimClient, row: repo.ScimUserRow, baseUrl: string) {
  const groups = await repo.groupsOfUsers(db, client.id, [row.id]);
  return userResource(row, groups, baseUrl);
}

async function visibleUser(db: DbOrTrx, client: ScimClient, id: string, forUpdate = false) {
  const row = await repo.findUser(db, client.scopePath, id, forUpdate);
  if (!row) throw scimNotFound(`There is no user ${id}.`);
  return row;
}

export async function getUser(db: Db, client: ScimClient, id: string, baseUrl: string) {
  return resourceOf(db, client, await visibleUser(db, client, id), baseUrl);
}

export async function listUsers(db: Db, client: ScimClient, paging: Paging, baseUrl: string) {
  const conditions = parseFilter(paging.filter, USER_FILTER_ATTRIBUTES);
  const startIndex = Math.max(1, paging.startIndex ?? 1);
  const count = Math.min(MAX_COUNT, Math.max(0, paging.count ?? DEFAULT_COUNT));
  const { rows, total } = await repo.listUsers(db, client.scopePath, conditions, startIndex - 1, count);
  const groups = await repo.groupsOfUsers(
    db,
    client.id,
    rows.map((r) => r.id),
  );
  const resources = rows.map((row) =>
    userResource(
      row,
      groups.filter((g) => g.user_id === row.id),
      baseUrl,
    ),
  );
  return listResponse(resources, total, startIndex);
}

const subjectOf = (client: ScimClient, input: UserInput) =>
  client.subjectAttribute === 'userName' ? input.userName : input.externalId;

/** Refuses (409 uniqueness) a userName, e-mail or external id another account holds. */
async function assertFree(db: DbOrTrx, input: UserInput, externalUserId: string | null, userId?: string) {
  const others = await repo.takenBy(db, {
    userName: input.userName,
    email: input.email,
    externalUserId,
    exceptUserId: userId,
  });
  for (const other of others) {
    if ((other.scim_user_name ?? other.id).toLowerCase() === input.userName.toLowerCase())
      throw uniqueness(`The userName ${input.userName} is already taken.`);
    if (externalUserId && other.external_user_id === externalUserId)
      throw uniqueness('Another user is already linked to this external id.');
    throw uniqueness(`The e-mail address ${input.email} belongs to another user.`);
  }
}

/** The new user's id: its userName when that is a valid, free user id; else a free variant of it. */
async function newUserId(db: DbOrTrx, userName: string): Promise<string> {
  const wanted = userName.trim().toLowerCase();
  if (validateUserId(wanted).ok && !(await repo.userIdTaken(db, wanted))) return wanted;
  let base = wanted
    .replace(/@/g, '.')
    .replace(/[^a-z0-9._]/g, '.')
    .replace(/\.{2,}/g, '.');
  base = base.replace(/^\.+|\.+$/g, '').slice(0, USER_ID_MAX_LENGTH - 4) || 'user';
  if (base.length < 3) base = `${base}.user`;
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? base : `${base}.${n}`;
    if (validateUserId(candidate).ok && !(await repo.userIdTaken(db, candidate))) return candidate;
  }
  throw uniqueness(`No free user id could be made from ${userName}.`);
}

const auditShape = (c: {
  name: string;
  email: string;
  disabled: boolean;
  scim_user_name: string | null;
  external_user_id: string | null;
}) => ({
  name: c.name,
  email: c.email,
  disabled: c.disabled,
  userName: c.scim_user_name,
  externalUserId: c.external_user_id,
});

export async function createUser(db: Db, client: ScimClient, body: unknown, effects: ScimEffects) {
  const input = readUserBody(body);
  const externalUserId = subjectOf(client, input);
  return db.transaction().execute(async (trx) => {
    // Someone deleted and provisioned again (a return after leaving) gets the old account back, with
    // its history, rather than a second one beside it.
    const returning = await repo.findDeletedUser(trx, client.scopePath, input.userName, input.email);
    if (returning) {
      await repo.markProvisioned(trx, returning.id, client.id);
      await recordEvent(trx, {
        type: 'userReprovisioned',
        aggregateType: 'user',
        aggregateId: returning.id,
        actor: client.id,
        payload: { via: 'scim', changes: {} },
      });
      return saveUser(trx, client, { ...returning, scim_user_name: null }, input, effects);
    }
    await assertFree(trx, input, externalUserId);
    const id = await newUserId(trx, input.userName);
    const columns = {
      name: input.name,
      email: input.email,
      disabled: !input.active,
      scim_user_name: input.userName,
      scim_external_id: input.externalId,
      external_user_id: externalUserId,
      external_id_set_by: externalUserId ? client.id : null,
    };
    await repo
      .insertUser(trx, { id, scope: client.scopePath, scim_client: client.id, ...columns })
      .catch(rethrowUnique);
    await recordEvent(trx, {
      type: 'userCreated',
      aggregateType: 'user',
      aggregateId: id,
      actor: client.id,
      payload: { via: 'scim', changes: diffRecords({}, { ...auditShape(columns), scope: client.scopePath }) },
    });
    return resourceOf(trx, client, await visibleUser(trx, client, id), effects.baseUrl);
  });
}

/** PUT and PATCH end here: the whole new state of the user, checked and written in one go. */
async function saveUser(
  trx: Trx,
  client: ScimClient,
  row: repo.ScimUserRow,
  input: UserInput,
  effects: ScimEffects,
) {
  let externalUserId = subjectOf(client, input);
  // A link made by someone else (an administrator) is not undone by a provider that sends none.
  if (!externalUserId && row.external_user_id && row.external_id_set_by !== client.id)
    externalUserId = row.external_user_id;
  await assertFree(trx, input, externalUserId, row.id);
  const columns = {
    name: input.name,
    email: input.email,
    disabled: !input.active,
    scim_user_name: input.userName,
    scim_external_id: input.externalId,
    external_user_id: externalUserId,
    external_id_set_by:
      externalUserId === row.external_user_id ? row.external_id_set_by : externalUserId ? client.id : null,
  };
  const changes = diffRecords(auditShape(row), auditShape(columns));
  await repo.updateUser(trx, row.id, columns).catch(rethrowUnique);
  if (columns.disabled && !row.disabled) await settleDisabledUser(trx, row.id, effects);
  if (Object.keys(changes).length > 0)
    await recordEvent(trx, {
      type: 'userUpdated',
      aggregateType: 'user',
      aggregateId: row.id,
      actor: client.id,
      payload: { via: 'scim', changes },
    });
  return resourceOf(trx, client, await visibleUser(trx, client, row.id), effects.baseUrl);
}

export async function replaceUser(
  db: Db,
  client: ScimClient,
  id: string,
  body: unknown,
  effects: ScimEffects,
) {
  return db.transaction().execute(async (trx) => {
    const row = await visibleUser(trx, client, id, true);
    return saveUser(trx, client, row, readUserBody(body), effects);
  });
}

export async function patchUser(db: Db, client: ScimClient, id: string, body: unknown, effects: ScimEffects) {
  return db.transaction().execute(async (trx) => {
    const row = await visibleUser(trx, client, id, true);
    const current = await resourceOf(trx, client, row, effects.baseUrl);
    const patched = applyPatch(current, body);
    return saveUser(trx, client, row, readUserBody(patched), effects);
  });
}

export async function deleteUser(db: Db, client: ScimClient, id: string, effects: ScimEffects) {
  await db.transaction().execute(async (trx) => {
    const row = await visibleUser(trx, client, id, true);
    // Out of every group first, so the roles the groups granted go with the memberships.
    const groups = await repo.groupsOfUsers(trx, client.id, [row.id]);
    await repo.removeUserFromGroups(trx, row.id);
    if (groups.length > 0) await syncUserRoles(trx, client, row.id);
    for (const g of groups) await recordMembership(trx, client, row.id, g.display_name, 'scimGroupLeft');
    await repo.markDeleted(trx, row.id);
    if (!row.disabled) await settleDisabledUser(trx, row.id, effects);
    await recordEvent(trx, {
      type: 'userDeprovisioned',
      aggregateType: 'user',
      aggregateId: row.id,
      actor: client.id,
      payload: {
        via: 'scim',
        changes: diffRecords(auditShape(row), {
          ...auditShape(row),
          disabled: true,
          userName: null,
          externalUserId: null,
        }),
      },
    });
  });
}

export function rethrowUnique(error: unknown): never {
  if ((error as { code?: string }).code === '23505')
    throw uniqueness('The userName, e-mail address or external id was taken meanwhile.');
  throw error;
}
