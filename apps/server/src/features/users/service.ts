import {
  type AdminUserView,
  formatRoleString,
  ipRangeForScope,
  isWithinScope,
  type PagingQuery,
  type RoleGrant,
  type SearchAnswer,
  type SecondFactorKind,
  type UserForm,
  type UserSummary,
  validateUserForm,
} from '@dossier/core';
import { diffRecords, listHistory, recordEvent } from '../../audit/events.js';
import type { Db, DbOrTrx } from '../../db/database.js';
import { toSearchAnswer } from '../../db/search.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { LiveHub } from '../../live/hub.js';
import { reassignOpenTasks } from '../assignment/index.js';
import type { Actor } from '../auth/index.js';
import { endUserSessions, hashPassword, secondFactorKinds } from '../auth/index.js';
import { sendActivationMail } from '../workflowMail/index.js';
import { findClaims } from './claimRepository.js';
import { settleRemovedRoles } from './disable.js';
import { mayActOnScope, mayManageUser, userScopes, WIDER_ROLES } from './policy.js';
import * as repo from './repository.js';
import { scopeOptionOf, userFormOptions } from './scopes.js';
import {
  assertUnique,
  auditShape,
  diffRoles,
  mapUniqueViolation,
  parseRoles,
  personalColumns,
  userFormOf,
} from './userData.js';

// User administration: /admin/users and /admin/users/edit/{userId}.

export const STALE_USER =
  'This user was changed by someone else since you opened it. Nothing was saved: reload the page to see the changes, then make yours again.';

async function formOptions(db: DbOrTrx, actor: Actor, currentScope?: string) {
  const options = await userFormOptions(db, userScopes(actor, 'user:edit'));
  // The user's own scope is always shown, even when no longer offered for new users.
  if (currentScope && !options.scopes.some((s) => s.scopePath === currentScope)) {
    options.scopes.unshift(await scopeOptionOf(db, currentScope));
  }
  return options;
}

export async function getUserView(
  db: DbOrTrx,
  actor: Actor,
  userId: string | undefined,
  action?: string,
): Promise<AdminUserView> {
  const base = { $type: 'adminUser' as const, action: action === 'addRole' ? 'addRole' : null };
  if (userId === undefined) {
    const options = await formOptions(db, actor);
    return {
      ...base,
      title: 'New User',
      userId: null,
      canEdit: options.scopes.length > 0,
      user: {
        userId: '',
        name: '',
        phone: '',
        email: '',
        scope: options.scopes[0]?.scopePath ?? '',
        country: 'AU',
        language: 'en-au',
        roles: [],
        disabled: false,
        passwordMustBeChangedAtNextLogin: true,
        externalUserId: null,
        // The preselected scope's default range, as choosing that scope would give.
        ipRange: ipRangeForScope(null, options.scopes[0]?.ipRanges ?? []),
        alternatePhone: '',
        address: '',
        version: 0,
      },
      ...options,
      history: [],
    };
  }
  const row = await repo.findUser(db, userId);
  const claims = row ? await findClaims(db, userId) : [];
  // A user outside the actor's scopes is answered as unknown: its existence is not told. A user who
  // claims a role at one of the actor's scopes is shown, so that the claim can be decided.
  const decides = (scope: string) => mayActOnScope(actor, 'user:edit', scope);
  if (!row || (!mayActOnScope(actor, 'user:view', row.scope) && !claims.some((c) => decides(c.scope))))
    throw notFound('No such user.');
  const roles = await repo.findRoles(db, userId);
  return {
    ...base,
    title: `User: ${userId}`,
    userId,
    canEdit: mayManageUser(actor, { scope: row.scope, roles }),
    ...(mayActOnScope(actor, 'user:edit', row.scope) && !mayManageUser(actor, { scope: row.scope, roles })
      ? { readOnlyReason: WIDER_ROLES }
      : {}),
    user: userFormOf(row, roles),
    // Who or what linked the account to single sign-on: a user id, or scim:<configuration>/<entry>.
    externalUserIdSetBy: row.external_id_set_by,
    roleGroups: await roleGroupsOf(db, userId),
    secondFactors: ((await secondFactorKinds(db, [userId])).get(userId) ?? []) as SecondFactorKind[],
    pendingRoles: claims.map((c) => ({
      id: c.id,
      role: formatRoleString(c),
      claimedAt: c.claimedAt.toISOString(),
      canDecide: decides(c.scope),
    })),
    ...(await formOptions(db, actor, row.scope)),
    history: await listHistory(db, 'user', userId),
  };
}

/** For each role a provider group grants (SCIM's roles from groups): the names of those groups. */
async function roleGroupsOf(db: DbOrTrx, userId: string): Promise<Record<string, string[]>> {
  const groups: Record<string, string[]> = {};
  for (const g of await repo.findRoleGroups(db, userId)) {
    const role = formatRoleString({ role: g.role, scope: g.scope });
    groups[role] = [...(groups[role] ?? []), g.display_name];
  }
  return groups;
}

/** Checks the scope, ip range and roles of an admin's save against what the actor may do. */
async function checkGrants(
  db: DbOrTrx,
  actor: Actor,
  input: {
    scope: string;
    scopeChanged: boolean;
    ipRange: string | null;
    added: RoleGrant[];
    removed: RoleGrant[];
  },
) {
  const options = await formOptions(db, actor);
  const editScopes = userScopes(actor, 'user:edit');
  if (!editScopes.some((s) => isWithinScope(input.scope, s)))
    throw forbidden('You may not manage users of this scope.');
  const scope =
    options.scopes.find((s) => s.scopePath === input.scope) ?? (await scopeOptionOf(db, input.scope));
  if (input.scopeChanged && !options.scopes.some((s) => s.scopePath === input.scope)) {
    throw badRequest('Users cannot be created in this scope.', {
      scope: 'Users cannot be created in this scope.',
    });
  }
  if (input.ipRange && !scope.ipRanges.some((r) => r.id === input.ipRange)) {
    throw badRequest('This IP range is not one of the scope.', {
      ipRange: 'Choose one of the IP ranges of the scope.',
    });
  }
  for (const g of input.added) {
    if (!editScopes.some((s) => isWithinScope(g.scope, s)))
      throw forbidden('You may not grant roles at this scope.');
    const offered = options.roleScopes.find((r) => r.scopePath === g.scope);
    if (!offered?.roles.includes(g.role)) {
      throw badRequest(`The role ${g.role} is not offered at ${g.scope}.`, {
        roles: `The role is not offered at ${g.scope}.`,
      });
    }
  }
  for (const g of input.removed) {
    if (!editScopes.some((s) => isWithinScope(g.scope, s)))
      throw forbidden('You may not remove roles granted at this scope.');
  }
  return scope;
}

/** What a user change sets off beyond the row: the activation mail, reassignment of tasks. */
export interface UserEffects {
  baseUrl?: string;
  ip?: string | null;
  jobs?: JobQueue | undefined;
  live?: LiveHub;
}

export async function createUser(
  db: Db,
  actor: Actor,
  form: UserForm,
  effects: UserEffects = {},
): Promise<AdminUserView> {
  const scopePath = (form.scope ?? '').trim();
  const scopeOption = scopePath ? await scopeOptionOf(db, scopePath) : undefined;
  const errors = validateUserForm(form, {
    creating: true,
    passwordRequired: false,
    scopeRequired: true,
    policy: scopeOption?.passwordPolicy,
  });
  if (Object.keys(errors).length > 0) throw badRequest('Please correct the marked fields.', errors);
  const userId = (form.userId ?? '').trim();
  const grants = parseRoles(form.roles);
  await checkGrants(db, actor, {
    scope: scopePath,
    scopeChanged: true,
    ipRange: form.ipRange ?? null,
    added: grants,
    removed: [],
  });
  await assertUnique(db, { userId, email: form.email });
  return db
    .transaction()
    .execute(async (trx) => {
      const columns = {
        ...personalColumns(form),
        scope: scopePath,
        disabled: form.disabled ?? false,
        password_must_change: form.passwordMustBeChangedAtNextLogin ?? false,
        ip_range: form.ipRange || null,
      };
      // An administrator vouches for the address: no confirmation mail for the users it creates.
      await repo.insertUser(trx, {
        id: userId,
        ...columns,
        password_hash: form.password ? await hashPassword(form.password) : null,
        email_confirmed_at: new Date(),
      });
      await repo.addRoles(trx, userId, grants);
      // A user given a password signs in with it: an activation link would only set another.
      if (effects.baseUrl && !columns.disabled && !form.password)
        await sendActivationMail(
          trx,
          { id: userId, name: columns.name, email: columns.email, phone: columns.phone, scope: scopePath },
          { baseUrl: effects.baseUrl, ip: effects.ip ?? null },
        );
      const changes = diffRecords(
        {},
        auditShape({ ...columns, ...(form.password ? { password: 'x' } : {}) }, grants),
      );
      await recordEvent(trx, {
        type: 'userCreated',
        aggregateType: 'user',
        aggregateId: userId,
        actor: actor.id,
        payload: { changes },
      });
      return getUserView(trx, actor, userId);
    })
    .catch(mapUniqueViolation);
}

export async function updateUser(
  db: Db,
  actor: Actor,
  userId: string,
  form: UserForm,
  effects: UserEffects = {},
): Promise<AdminUserView> {
  const existing = await repo.findUser(db, userId);
  if (!existing || !mayActOnScope(actor, 'user:view', existing.scope)) throw notFound('No such user.');
  if (!mayActOnScope(actor, 'user:edit', existing.scope)) throw forbidden('You may not change this user.');
  // Before the form is read: an administrator who may not manage this user learns nothing from it.
  if (!mayManageUser(actor, { scope: existing.scope, roles: await repo.findRoles(db, userId) }))
    throw forbidden(WIDER_ROLES);
  const scopePath = (form.scope ?? existing.scope).trim();
  const scopeOption = await scopeOptionOf(db, scopePath);
  const errors = validateUserForm(form, {
    creating: false,
    passwordRequired: false,
    scopeRequired: true,
    policy: scopeOption.passwordPolicy,
  });
  if (Object.keys(errors).length > 0) throw badRequest('Please correct the marked fields.', errors);
  if (form.version === undefined)
    throw badRequest('The version being edited is missing.', { version: 'Required.' });
  const version = form.version;
  await assertUnique(db, { email: form.email, exceptUserId: userId });
  return db
    .transaction()
    .execute(async (trx) => {
      const row = await repo.findUser(trx, userId, true);
      if (!row) throw notFound('No such user.');
      if (row.version !== version) throw conflict(STALE_USER);
      const roles = await repo.findRoles(trx, userId);
      if (!mayManageUser(actor, { scope: row.scope, roles })) throw forbidden(WIDER_ROLES);
      const { added, removed } = diffRoles(roles, parseRoles(form.roles));
      await checkGrants(trx, actor, {
        scope: scopePath,
        scopeChanged: scopePath !== row.scope,
        ipRange: form.ipRange ?? null,
        added,
        removed,
      });
      const columns = {
        ...personalColumns(form),
        scope: scopePath,
        disabled: form.disabled ?? row.disabled,
        password_must_change: form.passwordMustBeChangedAtNextLogin ?? row.password_must_change,
        ip_range: form.ipRange || null,
      };
      const unlock = form.isTemporaryLockedOut === false && row.locked_until !== null;
      const changes = diffRecords(
        auditShape(row, roles),
        auditShape(
          { ...row, ...columns, ...(unlock ? { locked_until: null } : {}) },
          diffApplied(roles, added, removed),
        ),
      );
      if (form.password) changes.password = { from: '(hidden)', to: '(changed)' };
      const next = await repo.updateUser(trx, userId, version, {
        ...columns,
        ...(form.password ? { password_hash: await hashPassword(form.password) } : {}),
        ...(unlock ? { locked_until: null, failed_signins: 0 } : {}),
      });
      if (next === undefined) throw conflict(STALE_USER);
      await repo.removeRoles(trx, userId, removed);
      await repo.addRoles(trx, userId, added);
      // Whoever held the old password, or the account now disabled, is signed out everywhere.
      if (form.password || (columns.disabled && !row.disabled))
        await endUserSessions(trx, effects.live, userId);
      // A disabled user can take no task: its open tasks go to others (or the fallback); so do
      // those a user may no longer work once roles are taken from it (issue 32).
      if (columns.disabled && !row.disabled)
        await reassignOpenTasks(trx, effects.jobs, { userId }, effects.live);
      else if (removed.length > 0) await settleRemovedRoles(trx, userId, effects);
      if (Object.keys(changes).length > 0) {
        await recordEvent(trx, {
          type: 'userUpdated',
          aggregateType: 'user',
          aggregateId: userId,
          actor: actor.id,
          payload: { changes },
        });
      }
      return getUserView(trx, actor, userId);
    })
    .catch(mapUniqueViolation);
}

function diffApplied(roles: RoleGrant[], added: RoleGrant[], removed: RoleGrant[]): RoleGrant[] {
  const gone = new Set(removed.map((g) => JSON.stringify(g)));
  return [...roles.filter((g) => !gone.has(JSON.stringify(g))), ...added];
}

export async function searchUsers(
  db: DbOrTrx,
  actor: Actor,
  terms: repo.UserSearch,
  paging: PagingQuery,
): Promise<SearchAnswer<UserSummary>> {
  const { rows, total } = await repo.searchUsers(
    db,
    terms,
    userScopes(actor, 'user:view'),
    paging.pageOffset,
    paging.pageSize,
  );
  return toSearchAnswer(
    rows.map((r) => ({
      id: r.id,
      item: {
        userId: r.id,
        name: r.name,
        email: r.email,
        phone: r.phone,
        scope: r.scope,
        disabled: r.disabled,
      },
    })),
    total,
    paging,
  );
}
