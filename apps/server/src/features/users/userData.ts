import {
  CONTROL_CHARACTER_MESSAGE,
  cleanAddress,
  EXTERNAL_ROLE,
  formatRoleString,
  hasControlCharacter,
  isRole,
  normalizeCountry,
  normalizePhone,
  parseRoleString,
  type RoleGrant,
  type UserForm,
} from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { badRequest, HttpError } from '../../http/errors.js';
import * as repo from './repository.js';

// What the account page, self-registration and user administration share: turning the form into
// columns, the role list into grants, and the uniqueness checks.

const trimOrNull = (v: string | null | undefined) => {
  const t = (v ?? '').trim();
  return t.length === 0 ? null : t;
};

function phoneOf(value: string | null | undefined, country: string | null | undefined): string | null {
  const t = trimOrNull(value);
  if (t === null) return null;
  const n = normalizePhone(t, country);
  return n.ok ? n.value : t;
}

/** The columns a form sets (the caller has validated it). */
export function personalColumns(form: UserForm) {
  const checked = normalizeCountry(form.country);
  const country = checked.ok ? checked.value : null;
  const address = trimOrNull(cleanAddress(form.address));
  return {
    name: form.name.trim(),
    email: form.email.trim(),
    phone: phoneOf(form.phone, country) ?? '',
    alternate_phone: phoneOf(form.alternatePhone, country),
    country,
    language: trimOrNull(form.language)?.toLowerCase() ?? null,
    address,
  };
}

/** The user as the forms show it. */
export function userFormOf(row: repo.UserRow, roles: RoleGrant[]) {
  const locked = row.locked_until !== null && row.locked_until.getTime() > Date.now();
  return {
    userId: row.id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    scope: row.scope,
    country: row.country ?? '',
    language: row.language ?? '',
    roles: roles.map(formatRoleString),
    disabled: row.disabled,
    passwordMustBeChangedAtNextLogin: row.password_must_change,
    // Shown only when the server supplies it: only while the account is locked.
    ...(locked ? { isTemporaryLockedOut: true } : {}),
    externalUserId: row.external_user_id,
    ipRange: row.ip_range,
    alternatePhone: row.alternate_phone ?? '',
    address: row.address ?? '',
    version: row.version,
  };
}

// Column names as the forms name the fields, for the history.
const AUDIT_NAMES: Record<string, string> = {
  alternate_phone: 'alternatePhone',
  password_must_change: 'passwordMustBeChangedAtNextLogin',
  ip_range: 'ipRange',
  locked_until: 'lockedUntil',
  external_user_id: 'externalUserId',
  email_confirmed_at: 'emailConfirmedAt',
};

/** The audited shape of a user: what the history shows changing. */
const NOT_AUDITED = new Set(['password_hash', 'failed_signins', 'updated_at', 'created_at', 'version', 'id']);

export function auditShape(row: object, roles: RoleGrant[]) {
  const named = Object.fromEntries(
    Object.entries(row)
      .filter(([k]) => !NOT_AUDITED.has(k))
      .map(([k, v]) => [AUDIT_NAMES[k] ?? k, v]),
  );
  return { ...named, roles: roles.map(formatRoleString) };
}

/** Parses role strings; a malformed one is a 400 on the roles field. */
export function parseRoles(values: readonly string[]): RoleGrant[] {
  const grants: RoleGrant[] = [];
  const seen = new Set<string>();
  for (const value of values) {
    // A role string is one line: a line break in a reference would be approved into the role.
    if (hasControlCharacter(value, { singleLine: true }))
      throw badRequest(CONTROL_CHARACTER_MESSAGE, { roles: CONTROL_CHARACTER_MESSAGE });
    const grant = parseRoleString(value);
    if (!grant || !isRole(grant.role))
      throw badRequest(`Unknown role: ${value}`, { roles: `Unknown role: ${value}` });
    if (grant.role === EXTERNAL_ROLE && !grant.externalReference?.trim()) {
      throw badRequest('The external role needs an external reference.', {
        roles: 'External reference is required.',
      });
    }
    if (grant.role !== EXTERNAL_ROLE && grant.externalReference !== undefined) {
      throw badRequest('Only the external role takes an external reference.', {
        roles: 'Only the external role takes an external reference.',
      });
    }
    const key = formatRoleString(grant);
    if (!seen.has(key)) grants.push(grant);
    seen.add(key);
  }
  return grants;
}

/** Which grants the new list adds to and removes from the current one. */
export function diffRoles(current: RoleGrant[], next: RoleGrant[]) {
  const key = (g: RoleGrant) => formatRoleString(g);
  const currentKeys = new Set(current.map(key));
  const nextKeys = new Set(next.map(key));
  return {
    added: next.filter((g) => !currentKeys.has(key(g))),
    removed: current.filter((g) => !nextKeys.has(key(g))),
  };
}

export const EMAIL_TAKEN = 'This email address is already used by another account.';
export const USER_ID_TAKEN = 'This user id is already taken.';

/** 409 with the field when the user id or the e-mail address belongs to another account. */
/**
 * Sign-in takes a user id or an email address, so each must name one account only: a user id may
 * be neither another account's id nor its address, and an address neither another's address nor
 * its id.
 */
export async function assertUnique(
  db: DbOrTrx,
  input: { userId?: string; email?: string; exceptUserId?: string },
) {
  const fields: Record<string, string> = {};
  const other = (id: string | undefined) => id !== undefined && id !== input.exceptUserId;
  if (input.userId) {
    const id = input.userId.trim();
    if ((await repo.userIdExists(db, id)) || other(await repo.emailOwner(db, id)))
      fields.userId = USER_ID_TAKEN;
  }
  if (input.email) {
    const email = input.email.trim();
    const asId = email.toLowerCase();
    if (other(await repo.emailOwner(db, email)) || (other(asId) && (await repo.userIdExists(db, asId))))
      fields.email = EMAIL_TAKEN;
  }
  if (Object.keys(fields).length > 0) {
    throw new HttpError(409, Object.values(fields).join(' '), 'conflict', fields);
  }
}

/** A unique-index race lost after the checks above: the same 409. */
export function mapUniqueViolation(error: unknown): never {
  const e = error as { code?: string; constraint?: string };
  if (e.code === '23505' && e.constraint === 'users_email_key') {
    throw new HttpError(409, EMAIL_TAKEN, 'conflict', { email: EMAIL_TAKEN });
  }
  if (e.code === '23505' && e.constraint === 'users_pkey') {
    throw new HttpError(409, USER_ID_TAKEN, 'conflict', { userId: USER_ID_TAKEN });
  }
  throw error;
}
