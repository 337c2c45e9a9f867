import type { Db, DbOrTrx, Trx } from '../../db/database.js';
import { invalidValue, scimNotFound, uniqueness } from './errors.js';
import { GROUP_FILTER_ATTRIBUTES, parseFilter } from './filter.js';
import { recordMembership, syncUserRoles } from './groupRoles.js';
import { applyPatch } from './patch.js';
import * as repo from './repository.js';
import { type GroupInput, groupResource, listResponse, readGroupBody } from './resources.js';
import type { ScimClient } from './tokens.js';
import { DEFAULT_COUNT, MAX_COUNT, type Paging, type ScimEffects } from './users.js';

// The Groups endpoint. Groups belong to the client that made them; their members are users the
// client sees. A change of membership (or of a group's name) re-derives the members' group roles.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function visibleGroup(db: DbOrTrx, client: ScimClient, id: string, forUpdate = false) {
  const row = UUID.test(id) ? await repo.findGroup(db, client.id, id.toLowerCase(), forUpdate) : undefined;
  if (!row) throw scimNotFound(`There is no group ${id}.`);
  return row;
}

async function resourceOf(db: DbOrTrx, client: ScimClient, row: repo.ScimGroupRow, baseUrl: string) {
  const members = await repo.groupMembers(db, client.scopePath, [row.id]);
  return groupResource(row, members, baseUrl);
}

export async function getGroup(db: Db, client: ScimClient, id: string, baseUrl: string) {
  return resourceOf(db, client, await visibleGroup(db, client, id), baseUrl);
}

export async function listGroups(
  db: Db,
  client: ScimClient,
  paging: Paging & { excludeMembers?: boolean },
  baseUrl: string,
) {
  const conditions = parseFilter(paging.filter, GROUP_FILTER_ATTRIBUTES);
  const startIndex = Math.max(1, paging.startIndex ?? 1);
  const count = Math.min(MAX_COUNT, Math.max(0, paging.count ?? DEFAULT_COUNT));
  const { rows, total } = await repo.listGroups(db, client.id, conditions, startIndex - 1, count);
  const members = paging.excludeMembers
    ? []
    : await repo.groupMembers(
        db,
        client.scopePath,
        rows.map((r) => r.id),
      );
  const resources = rows.map((row) =>
    groupResource(
      row,
      members.filter((m) => m.group_id === row.id),
      baseUrl,
      !paging.excludeMembers,
    ),
  );
  return listResponse(resources, total, startIndex);
}

/** Every member must be a user the client sees; a group cannot reach into another scope. */
async function assertMembers(trx: DbOrTrx, client: ScimClient, ids: string[]) {
  for (const id of ids) {
    if (!(await repo.findUser(trx, client.scopePath, id)))
      throw invalidValue(`members: there is no user ${id}.`);
  }
}

async function assertNameFree(trx: DbOrTrx, client: ScimClient, name: string, exceptId?: string) {
  if (await repo.groupNameTaken(trx, client.id, name, exceptId))
    throw uniqueness(`There is already a group named ${name}.`);
}

export async function createGroup(db: Db, client: ScimClient, body: unknown, effects: ScimEffects) {
  const input = readGroupBody(body);
  return db.transaction().execute(async (trx) => {
    await assertNameFree(trx, client, input.displayName);
    await assertMembers(trx, client, input.memberIds);
    const row = await repo.insertGroup(trx, {
      client: client.id,
      scope: client.scopePath,
      display_name: input.displayName,
      external_id: input.externalId,
    });
    await repo.addMembers(trx, row.id, input.memberIds);
    for (const userId of input.memberIds) {
      await syncUserRoles(trx, client, userId);
      await recordMembership(trx, client, userId, input.displayName, 'scimGroupJoined');
    }
    return resourceOf(trx, client, row, effects.baseUrl);
  });
}

/** PUT and PATCH end here: the group's new name and members, written and the roles re-derived. */
async function saveGroup(
  trx: Trx,
  client: ScimClient,
  row: repo.ScimGroupRow,
  input: GroupInput,
  baseUrl: string,
) {
  await assertNameFree(trx, client, input.displayName, row.id);
  const before = (await repo.groupMembers(trx, client.scopePath, [row.id])).map((m) => m.id);
  const added = input.memberIds.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !input.memberIds.includes(id));
  await assertMembers(trx, client, added);
  await repo.updateGroup(trx, row.id, { display_name: input.displayName, external_id: input.externalId });
  await repo.addMembers(trx, row.id, added);
  await repo.removeMembers(trx, row.id, removed);
  // A new name may match other mappings: then every member's roles are looked at again.
  const renamed = input.displayName !== row.display_name;
  const affected = renamed ? [...new Set([...before, ...added])] : [...added, ...removed];
  for (const userId of affected) await syncUserRoles(trx, client, userId);
  for (const userId of added)
    await recordMembership(trx, client, userId, input.displayName, 'scimGroupJoined');
  for (const userId of removed)
    await recordMembership(trx, client, userId, row.display_name, 'scimGroupLeft');
  return resourceOf(trx, client, (await repo.findGroup(trx, client.id, row.id)) ?? row, baseUrl);
}

export async function replaceGroup(
  db: Db,
  client: ScimClient,
  id: string,
  body: unknown,
  effects: ScimEffects,
) {
  return db.transaction().execute(async (trx) => {
    const row = await visibleGroup(trx, client, id, true);
    return saveGroup(trx, client, row, readGroupBody(body), effects.baseUrl);
  });
}

export async function patchGroup(
  db: Db,
  client: ScimClient,
  id: string,
  body: unknown,
  effects: ScimEffects,
) {
  return db.transaction().execute(async (trx) => {
    const row = await visibleGroup(trx, client, id, true);
    const patched = applyPatch(await resourceOf(trx, client, row, effects.baseUrl), body);
    return saveGroup(trx, client, row, readGroupBody(patched), effects.baseUrl);
  });
}

export async function deleteGroup(db: Db, client: ScimClient, id: string) {
  await db.transaction().execute(async (trx) => {
    const row = await visibleGroup(trx, client, id, true);
    const members = (await repo.groupMembers(trx, client.scopePath, [row.id])).map((m) => m.id);
    await repo.removeMembers(trx, row.id, members);
    for (const userId of members) {
      await syncUserRoles(trx, client, userId);
      await recordMembership(trx, client, userId, row.display_name, 'scimGroupLeft');
    }
    await repo.deleteGroup(trx, row.id);
  });
}
