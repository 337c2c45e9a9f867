import {
  type AccountCreatedView,
  type AccountView,
  DEFAULT_PASSWORD_POLICY,
  EXTERNAL_ROLE,
  formatRoleString,
  type RoleGrant,
  tryAgainIn,
  type UserForm,
  validateUserForm,
} from '@dossier/core';
import { diffRecords, recordEvent } from '../../audit/events.js';
import type { Db, DbOrTrx } from '../../db/database.js';
import { takeRateOrWait } from '../../db/rateLimit.js';
import { badRequest, conflict, forbidden, notFound, tooManyRequests } from '../../http/errors.js';
import type { LiveHub } from '../../live/hub.js';
import { retireTokens } from '../accountTokens/index.js';
import type { Actor } from '../auth/index.js';
import { endUserSessions, hashPassword, verifyPassword } from '../auth/index.js';
import { getPasswordPolicy } from '../configuration/index.js';
import {
  addClaims,
  assertUnique,
  auditShape,
  diffRoles,
  findClaims,
  mapUniqueViolation,
  parseRoles,
  personalColumns,
  removeClaims,
  usersRepository as repo,
  scopeNames,
  selfRoleScopes,
  settleRemovedRoles,
  userFormOf,
} from '../users/index.js';
import { CONFIRM_PURPOSE, sendAlreadyRegistered, sendConfirmation } from './confirmation.js';

// The account page of the signed-in user (/account) and self-registration (/account/create).

export interface PasswordHandling {
  /** False when single sign-on is on and password handling off. */
  enabled: boolean;
}

export async function getAccountView(
  db: DbOrTrx,
  actor: Actor,
  handling: PasswordHandling,
  action?: string,
): Promise<AccountView> {
  const row = await repo.findUser(db, actor.id);
  if (!row) throw notFound('No such user.');
  const roles = await repo.findRoles(db, actor.id);
  const claims = await findClaims(db, actor.id);
  // Claimed external roles are listed with the granted ones, so the form keeps them, and marked
  // pending: they grant nothing until an administrator of their scope approves them.
  const form = userFormOf(row, [...roles, ...claims]);
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
    pendingRoles: claims.map(formatRoleString),
    pendingEmail: row.pending_email,
    emailConfirmed: row.email_confirmed_at !== null,
    canChangePassword: handling.enabled && row.external_user_id === null,
    passwordPolicy: await getPasswordPolicy(db, row.scope),
    roleScopes: await selfRoleScopes(db),
    scopeNames: await scopeNames(db),
  };
}

/** Mails to a new address one account may set off per hour. */
const EMAIL_CHANGES_PER_HOUR = 3;
/** Wrong current passwords one account may give per 15 minutes. */
const CURRENT_PASSWORD_TRIES = 10;

async function checkCurrentPassword(db: Db, userId: string, hash: string, given: string | null | undefined) {
  const required = 'Enter your current password to change your password or email address.';
  if (!given) throw badRequest(required, { currentPassword: required });
  if (await verifyPassword(hash, given)) return;
  const wait = await takeRateOrWait(db, 'currentPassword', userId, CURRENT_PASSWORD_TRIES, 900);
  if (wait) throw tooManyRequests(`Too many wrong passwords. ${tryAgainIn(wait)}`, wait);
  const wrong = 'The current password is not correct.';
  throw badRequest(wrong, { currentPassword: wrong });
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
  live?: LiveHub,
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
  const emailChanged = form.email.trim().toLowerCase() !== row.email.toLowerCase();
  // Whoever holds a session but not the password cannot take the account over.
  if ((form.password || emailChanged) && row.password_hash !== null)
    await checkCurrentPassword(db, actor.id, row.password_hash, form.currentPassword);
  const changeWait = emailChanged
    ? await takeRateOrWait(db, 'emailChange', actor.id, EMAIL_CHANGES_PER_HOUR, 3600)
    : undefined;
  if (changeWait)
    throw tooManyRequests(`Too many email address changes. ${tryAgainIn(changeWait)}`, changeWait);
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
      const claims = await findClaims(trx, actor.id);
      const { added, removed } = checkSelfRoles([...roles, ...claims], parseRoles(form.roles), offered);
      const claimed = new Set(claims.map(formatRoleString));
      const removedClaims = removed.filter((g) => claimed.has(formatRoleString(g)));
      const removedRoles = removed.filter((g) => !claimed.has(formatRoleString(g)));
      const columns = { ...personalColumns(form) };
      // Country and language are kept unless the form sends them.
      if (form.country == null) columns.country = current.country;
      if (form.language == null) columns.language = current.language;
      const nextRoles = roles.filter((g) => !removedRoles.includes(g));
      const changes = diffRecords(
        auditShape(current, roles),
        auditShape({ ...current, ...columns }, nextRoles),
      );
      if (form.password) changes.password = { from: '(hidden)', to: '(changed)' };
      if (emailChanged) {
        delete changes.email;
        changes.pendingEmail = { from: current.pending_email ?? '', to: columns.email };
      }
      if (added.length > 0 || removedClaims.length > 0)
        changes.roleClaims = {
          from: claims.map(formatRoleString).join(', '),
          to: [...claims.filter((c) => !removedClaims.includes(c)), ...added]
            .map(formatRoleString)
            .join(', '),
        };
      // A new address waits until its link is followed; the old one stays the account's meanwhile,
      // so a typo cannot lock the user out.
      await repo.updateUser(trx, actor.id, current.version, {
        ...columns,
        email: current.email,
        ...(emailChanged ? { pending_email: columns.email } : {}),
        ...(form.password
          ? { password_hash: await hashPassword(form.password), password_must_change: false }
          : {}),
      });
      if (form.password) await endUserSessions(trx, live, actor.id, actor.sessionId);
      await repo.removeRoles(trx, actor.id, removedRoles);
      if (removedRoles.length > 0) await settleRemovedRoles(trx, actor.id, { live });
      await removeClaims(trx, actor.id, removedClaims);
      await addClaims(trx, actor.id, added);
      if (emailChanged) {
        // Only the newest address's link confirms anything.
        await retireTokens(trx, actor.id, CONFIRM_PURPOSE);
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

export async function getRegistrationView(db: DbOrTrx): Promise<AccountView> {
  return {
    $type: 'accountCreate',
    title: 'Register New Account',
    user: { userId: '', name: '', phone: '', email: '', country: 'AU', language: 'en-au', roles: [] },
    canChangePassword: true,
    passwordPolicy: DEFAULT_PASSWORD_POLICY,
    roleScopes: await selfRoleScopes(db),
    scopeNames: await scopeNames(db),
  };
}

/**
 * Registers an account: the user, the external roles it claims, and a confirmation mail in the
 * outbox. The account can sign in once the address is confirmed. Its home scope is the configured
 * one for newcomers (SELF_REGISTRATION_SCOPE), outside every organisation: it belongs to none of them
 * until an administrator approves a claim or grants a role.
 */
/** Registrations one address may make per hour (each sends a mail). */
export const REGISTRATIONS_PER_HOUR = 10;

export async function registerAccount(
  db: Db,
  form: UserForm,
  request: { baseUrl: string; ip: string; homeScope: string },
) {
  // Every attempt counts, refused ones too: else the answers could be used to try addresses.
  const wait = await takeRateOrWait(db, 'register', request.ip, REGISTRATIONS_PER_HOUR, 3600);
  if (wait) {
    throw tooManyRequests(`Too many accounts were registered from this address. ${tryAgainIn(wait)}`, wait);
  }
  const offered = await selfRoleScopes(db);
  const scope = request.homeScope;
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
  // A taken user id is said (the newcomer picks another); a taken address is not: the answer is
  // the same as for a new account, the password is hashed all the same, and the address's owner is
  // mailed what happened.
  await assertUnique(db, { userId });
  const owner = await repo.emailOwner(db, form.email.trim());
  if (owner !== undefined) {
    await hashPassword(form.password ?? '');
    await db
      .transaction()
      .execute((trx) => sendAlreadyRegistered(trx, { ownerId: owner, email: form.email.trim(), ...request }));
    return {
      $type: 'accountCreated',
      title: 'Congratulations',
      userId,
      email: form.email.trim(),
    } satisfies AccountCreatedView;
  }
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
      // What a newcomer says it is, is a claim until an administrator of that scope approves it.
      await addClaims(trx, userId, added);
      await sendConfirmation(trx, {
        userId,
        name: columns.name,
        email: columns.email,
        baseUrl: request.baseUrl,
        ip: request.ip,
      });
      const changes = diffRecords({}, auditShape(columns, []));
      if (added.length > 0) changes.roleClaims = { from: '', to: added.map(formatRoleString).join(', ') };
      await recordEvent(trx, {
        type: 'accountRegistered',
        aggregateType: 'user',
        aggregateId: userId,
        actor: userId,
        payload: { changes },
      });
      return {
        $type: 'accountCreated',
        title: 'Congratulations',
        userId,
        email: columns.email,
      } satisfies AccountCreatedView;
    })
    .catch(mapUniqueViolation);
}
