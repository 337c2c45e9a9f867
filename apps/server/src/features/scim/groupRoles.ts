import { formatRoleString, isWithinScope, type ScimGroupRole } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { DbOrTrx, Trx } from '../../db/database.js';
import { settleRemovedRoles } from '../users/index.js';
import * as repo from './repository.js';
import { clientIdOf, type ScimClient } from './tokens.js';

// Roles from groups: the client's entry maps provider group names to roles at scopes. A user holds
// exactly the mapped roles of the groups it is a member of; what an administrator granted by hand
// is never touched (see repository.ts#revokeRole). A mapping to a scope outside the client's own
// grants nothing: a client cannot reach past its configuration.

type Grant = { groupId: string; role: string; scope: string };
const keyOf = (g: Grant) => `${g.groupId}|${g.role}|${g.scope}`;

/** Brings the user's group roles in line with its memberships and the mapping; audited. */
export async function syncUserRoles(trx: Trx, client: ScimClient, userId: string): Promise<void> {
  const groups = await repo.groupsOfUsers(trx, client.id, [userId]);
  const wanted: Grant[] = groups.flatMap((g) =>
    client.groupRoles
      .filter((m) => m.group.toLowerCase() === g.display_name.toLowerCase())
      .filter((m) => isWithinScope(m.scopePath, client.scopePath))
      .map((m) => ({ groupId: g.id, role: m.role, scope: m.scopePath })),
  );
  const held = (await repo.roleGrantsOf(trx, client.id, userId)).map((g) => ({
    groupId: g.group_id,
    role: g.role,
    scope: g.scope,
  }));
  const wantedKeys = new Set(wanted.map(keyOf));
  const heldKeys = new Set(held.map(keyOf));
  const toRevoke = held.filter((g) => !wantedKeys.has(keyOf(g)));
  const toGrant = wanted.filter((g) => !heldKeys.has(keyOf(g)));
  if (toRevoke.length === 0 && toGrant.length === 0) return;
  const before = await roleStrings(trx, userId);
  for (const g of toRevoke) await repo.revokeRole(trx, { ...g, userId });
  for (const g of toGrant) await repo.grantRole(trx, { ...g, userId });
  const after = await roleStrings(trx, userId);
  // Tasks the user may no longer work go to others, here in the transaction of the change.
  if (before.some((r) => !after.includes(r))) await settleRemovedRoles(trx, userId, {});
  if (JSON.stringify(before) !== JSON.stringify(after))
    await recordEvent(trx, {
      type: 'userUpdated',
      aggregateType: 'user',
      aggregateId: userId,
      actor: client.id,
      payload: { via: 'scim', changes: { roles: { from: before, to: after } } },
    });
}

async function roleStrings(trx: DbOrTrx, userId: string): Promise<string[]> {
  const rows = await repo.rolesOf(trx, userId);
  return rows.map((r) =>
    formatRoleString({
      role: r.role,
      scope: r.scope,
      ...(r.external_reference === null ? {} : { externalReference: r.external_reference }),
    }),
  );
}

/** A membership change in the user's history, naming the group. */
export async function recordMembership(
  trx: Trx,
  client: ScimClient,
  userId: string,
  group: string,
  type: 'scimGroupJoined' | 'scimGroupLeft',
) {
  await recordEvent(trx, {
    type,
    aggregateType: 'user',
    aggregateId: userId,
    actor: client.id,
    payload: { via: 'scim', group, changes: {} },
  });
}

/**
 * A client's entry was saved in the configuration: its group mapping may have changed, so every
 * member of its groups gets the mapped roles now, in the same transaction as the save, rather than
 * at the provider's next group update.
 */
export async function resyncClientRoles(
  trx: Trx,
  saved: {
    configurationId: string;
    entryId: string;
    scopePath: string;
    name: string;
    data: { subjectAttribute: ScimClient['subjectAttribute']; groupRoles: ScimGroupRole[] };
  },
): Promise<void> {
  const client: ScimClient = {
    id: clientIdOf(saved.configurationId, saved.entryId),
    name: saved.name,
    configurationId: saved.configurationId,
    entryId: saved.entryId,
    scopePath: saved.scopePath,
    subjectAttribute: saved.data.subjectAttribute,
    groupRoles: saved.data.groupRoles,
  };
  for (const userId of await repo.usersOfClientGroups(trx, client.id, client.scopePath))
    await syncUserRoles(trx, client, userId);
}
