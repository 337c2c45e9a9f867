import {
  DEFAULT_PASSWORD_POLICY,
  EXTERNAL_ROLE,
  type RoleGrant,
  type UserForm,
  validateUserForm,
} from '@dossier/core';
import { diffRecords, recordEvent } from '../../audit/events.js';
import type { Db, DbOrTrx } from '../../db/database.js';
import { badRequest, conflict, forbidden, notFound, tooManyRequests } from '../../http/errors.js';
import type { Actor } from '../auth/actor.js';
import { hashPassword } from '../auth/passwords.js';
import { getPasswordPolicy } from '../configuration/effective.js';
import * as repo from '../users/repository.js';
import { selfRoleScopes } from '../users/scopes.js';
import {
  assertUnique,
  auditShape,
  diffRoles,
  mapUniqueViolation,
  parseRoles,
  personalColumns,
  userFormOf,
} from '../users/userData.js';
import { CONFIRM_PURPOSE, sendConfirmation } from './confirmation.js';

// The account page of the signed-in user (/account) and self-registration (/account/create).

export interface PasswordHandling {
  /** False when single sign-on is on and password handling off. */
  enabled: boolean;
}

export async function getAccountView(db: DbOrTrx, actor: Actor, handling: PasswordHandling, action?: string) {
  const row = await repo.findUser(db, actor.id);
  if (!row) throw notFound('No such user.');
  const roles = await repo.findRoles(db, actor.id);
  const form = userFormOf(row, roles);
  return {
    $type: 'account',
    title: `Account: ${actor.id}`,
    action: action === 'addRole' ? 'addRole' : null,
    user: {
      userId: form.userId,
      name: form.name,
      phone: form.phone,
      email: form.email,
      country: form.country,
      language: form.language,
      roles: form.roles,
      externalUserId: form.externalUserId,
      version: form.version,
    },
    emailConfirmed: row.email_confirmed_at !== null,
    canChangePassword: handling.enabled && row.external_user_id === null,
    passwordPolicy: await getPasswordPolicy(db, row.scope),
    roleScopes: await selfRoleScopes(db),
  };
}

/** A registered user adds or removes only external roles, and adds them only at offered scopes. */
function checkSelfRoles(current: RoleGrant[], next: RoleGrant[], offered: string[]) {
  const { added, removed } = diffRoles(current, next);
  for (const g of [...added, ...removed]) {
    if (g.role !== EXTERNAL_ROLE) throw forbidden('Only external roles can be added or removed here.');
  }
  for (const g of added) {
    if (!offered.includes(g.scope)) {
      throw badRequest('This scope is not offered for external roles.', {
        roles: 'Choose one of the offered scopes.',
      });
    }
  }
  return { added, removed };
}

export async function updateAccount(
  db: Db,
  actor: Actor,
  handling: PasswordHandling,
  form: UserForm,
  request: { baseUrl: string; ip: string },
) {
  const row = await repo.findUser(db, actor.id);
  if (!row) throw notFound('No such user.');
  const mayChangePassword = handling.enabled && row.external_user_id === null;
  if (form.password && !mayChangePassword)
    throw forbidden('The password of this account is managed elsewhere.');
  const policy = await getPasswordPolicy(db, row.scope);
  const errors = validateUserForm(form, {
    creating: false,
    passwordRequired: false,
    scopeRequired: false,
    policy,
  });
  if (Object.keys(errors).length > 0) throw badRequest('Please correct the marked fields.', errors);
  await assertUnique(db, { email: form.email, exceptUserId: actor.id });
  const offered = await selfRoleScopes(db);
  return db
    .transaction()
    .execute(async (trx) => {
      const current = await repo.findUser(trx, actor.id, true);
      if (!current) throw notFound('No such user.');
      if (form.version !== undefined && form.version !== current.version) {
        throw conflict(
          'Your account was changed elsewhere since you opened this page. Reload it and try again.',
        );
      }
      const roles = await repo.findRoles(trx, actor.id);
      const { added, removed } = checkSelfRoles(roles, parseRoles(form.roles), offered);
      const columns = { ...personalColumns(form) };
      // Country and language are kept unless the form sends them.
      if (form.country == null) columns.country = current.country;
      if (form.language == null) columns.language = current.language;
      const nextRoles = [...roles.filter((g) => !removed.includes(g)), ...added];
      const changes = diffRecords(
        auditShape(current as unknown as Record<string, unknown>, roles),
        auditShape({ ...current, ...columns } as unknown as Record<string, unknown>, nextRoles),
      );
      if (form.password) changes.password = { from: '(hidden)', to: '(changed)' };
      // A changed address is confirmed again (a link to the new one) before the next sign-in.
      const emailChanged = columns.email.toLowerCase() !== current.email.toLowerCase();
      await repo.updateUser(trx, actor.id, current.version, {
        ...columns,
        ...(emailChanged ? { email_confirmed_at: null } : {}),
        ...(form.password
          ? { password_hash: await hashPassword(form.password), password_must_change: false }
          : {}),
      });
      await repo.removeRoles(trx, actor.id, removed);
      await repo.addRoles(trx, actor.id, added);
      if (emailChanged) {
        await sendConfirmation(trx, {
          userId: actor.id,
          name: columns.name,
          email: columns.email,
          ...request,
        });
      }
      if (Object.keys(changes).length > 0) {
        await recordEvent(trx, {
          type: 'accountUpdated',
          aggregateType: 'user',
          aggregateId: actor.id,
          actor: actor.id,
          payload: { changes },
        });
      }
      return getAccountView(trx, actor, handling);
    })
    .catch(mapUniqueViolation);
}

export async function getRegistrationView(db: DbOrTrx) {
  return {
    $type: 'accountCreate',
    title: 'Register New Account',
    user: { userId: '', name: '', phone: '', email: '', country: 'AU', language: 'en-au', roles: [] },
    canChangePassword: true,
    passwordPolicy: DEFAULT_PASSWORD_POLICY,
    roleScopes: await selfRoleScopes(db),
  };
}

/**
 * Registers an account: the user, its external roles, and a confirmation mail in the outbox. The
 * account can sign in once the address is confirmed. Its scope is the first scope offered for
 * self-assigned roles (else '/'), so administrators of that scope manage it.
 */
/** Registrations one address may make per hour (each sends a mail). */
export const REGISTRATIONS_PER_HOUR = 10;

export async function registerAccount(db: Db, form: UserForm, request: { baseUrl: string; ip: string }) {
  const since = new Date(Date.now() - 3_600_000);
  if ((await repo.countTokensFromIp(db, request.ip, CONFIRM_PURPOSE, since)) >= REGISTRATIONS_PER_HOUR) {
    throw tooManyRequests(
      'Too many accounts were registered from this address. Please try again later.',
      3600,
    );
  }
  const offered = await selfRoleScopes(db);
  const scope = offered[0] ?? '/';
  const policy = await getPasswordPolicy(db, scope);
  const errors = validateUserForm(form, {
    creating: true,
    passwordRequired: true,
    scopeRequired: false,
    policy,
  });
  if (Object.keys(errors).length > 0) throw badRequest('Please correct the marked fields.', errors);
  const userId = (form.userId ?? '').trim();
  const { added } = checkSelfRoles([], parseRoles(form.roles), offered);
  await assertUnique(db, { userId, email: form.email });
  return db
    .transaction()
    .execute(async (trx) => {
      const columns = {
        ...personalColumns(form),
        scope,
        disabled: false,
        password_must_change: false,
        ip_range: null,
      };
      await repo.insertUser(trx, {
        id: userId,
        ...columns,
        password_hash: await hashPassword(form.password ?? ''),
        email_confirmed_at: null,
      });
      await repo.addRoles(trx, userId, added);
      await sendConfirmation(trx, { userId, name: columns.name, email: columns.email, ...request });
      const changes = diffRecords({}, auditShape(columns, added));
      await recordEvent(trx, {
        type: 'accountRegistered',
        aggregateType: 'user',
        aggregateId: userId,
        actor: userId,
        payload: { changes },
      });
      return { $type: 'accountCreated', title: 'Congratulations', userId, email: columns.email };
    })
    .catch(mapUniqueViolation);
}
