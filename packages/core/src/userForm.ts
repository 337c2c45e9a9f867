import { z } from 'zod';
import { normalizeCountry } from './countries.js';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from './inputRules.js';
import {
  checkPassword,
  checkPasswordRepeat,
  DEFAULT_PASSWORD_POLICY,
  type PasswordPolicy,
} from './passwordPolicy.js';
import { EXTERNAL_ROLE } from './permissions.js';
import { normalizePhone, validateEmail, validateUserId } from './validators.js';

// The user form of the account page, self-registration and user administration (sections
// 3 and 5). The shape is checked by zod on the server; the rules, with their messages per field,
// are these functions, run by the form before saving and by the server again.

const text = (max: number) => z.string().max(max);

export const userFormSchema = z.object({
  userId: text(100).optional(),
  name: text(200).default(''),
  phone: text(40).default(''),
  email: text(254).default(''),
  scope: text(500).optional(),
  /** An ISO code; a country's English name is taken too and stored as its code. */
  country: text(100).nullish(),
  language: text(20).nullish(),
  password: text(200).nullish(),
  /** The account page asks for it to change the password or the email address. */
  currentPassword: text(1000).nullish(),
  roles: z.array(text(600)).max(200).default([]),
  disabled: z.boolean().optional(),
  passwordMustBeChangedAtNextLogin: z.boolean().optional(),
  isTemporaryLockedOut: z.boolean().optional(),
  ipRange: text(100).nullish(),
  alternatePhone: text(40).nullish(),
  address: text(2000).nullish(),
  version: z.number().int().optional(),
});
export type UserForm = z.infer<typeof userFormSchema>;

export type FieldErrors = Record<string, string>;

const REQUIRED: Record<string, string> = {
  userId: 'User id is required.',
  name: 'Name is required.',
  phone: 'Phone is required.',
  email: 'Email is required.',
  scope: 'Scope is required.',
  password: 'Password is required.',
  repeatPassword: 'Repeat the password.',
  role: 'Role is required.',
  externalReference: 'External reference is required.',
};

export function requiredMessage(field: string): string {
  return REQUIRED[field] ?? 'This field is required.';
}

export interface UserFormRules {
  /** Creating: userId (and, on the account page, password) are required. */
  creating: boolean;
  /** Self-registration needs a password; an administrator may leave it empty. */
  passwordRequired: boolean;
  /** The admin form needs a scope. */
  scopeRequired: boolean;
  /** Undefined when the scope's policy is not known (no scope chosen): the default applies. */
  policy?: PasswordPolicy | undefined;
  /** The repeat-password field exists only on the client; the server passes undefined. */
  repeatPassword?: string | undefined;
}

/** Field errors of a user form, keyed by field; empty when it may be saved. */
export function validateUserForm(form: Partial<UserForm>, rules: UserFormRules): FieldErrors {
  const errors: FieldErrors = {};
  const blank = (v: string | null | undefined) => (v ?? '').trim().length === 0;
  if (rules.creating) {
    if (blank(form.userId)) errors.userId = requiredMessage('userId');
    else {
      const id = validateUserId(form.userId ?? '');
      if (!id.ok) errors.userId = id.message;
    }
  }
  if (blank(form.name)) errors.name = requiredMessage('name');
  if (blank(form.phone)) errors.phone = requiredMessage('phone');
  else {
    const phone = normalizePhone(form.phone ?? '', form.country);
    if (!phone.ok) errors.phone = phone.message;
  }
  if (!blank(form.alternatePhone)) {
    const phone = normalizePhone(form.alternatePhone ?? '', form.country);
    if (!phone.ok) errors.alternatePhone = phone.message;
  }
  if (blank(form.email)) errors.email = requiredMessage('email');
  else {
    const email = validateEmail(form.email ?? '');
    if (!email.ok) errors.email = email.message;
  }
  const country = normalizeCountry(form.country);
  if (!country.ok) errors.country = country.message;
  if (rules.scopeRequired && blank(form.scope)) errors.scope = requiredMessage('scope');
  const password = form.password ?? '';
  if (password.length === 0) {
    if (rules.passwordRequired) errors.password = requiredMessage('password');
  } else {
    const problem = checkPassword(password, rules.policy ?? DEFAULT_PASSWORD_POLICY);
    if (problem) errors.password = problem;
    if (rules.repeatPassword !== undefined) {
      if (rules.repeatPassword.length === 0) errors.repeatPassword = requiredMessage('repeatPassword');
      else {
        const mismatch = checkPasswordRepeat(password, rules.repeatPassword);
        if (mismatch) errors.repeatPassword = mismatch;
      }
    }
  }
  return errors;
}

/** The add-role subview as entered: a role or scope it clears (a new scope may not offer the role) is undefined. */
export interface RoleGrantDraft {
  role?: string | undefined;
  scope?: string | undefined;
  externalReference?: string | undefined;
}

/** The add-role subview: role and scope; the reference only, and always, for the external role. */
export function validateRoleGrant(grant: RoleGrantDraft, selfService: boolean): FieldErrors {
  const errors: FieldErrors = {};
  if (!selfService && !grant.role) errors.role = requiredMessage('role');
  if (!grant.scope) errors.scope = requiredMessage('scope');
  const role = selfService ? EXTERNAL_ROLE : grant.role;
  const reference = (grant.externalReference ?? '').trim();
  if (role === EXTERNAL_ROLE && reference.length === 0)
    errors.externalReference = requiredMessage('externalReference');
  if (role !== EXTERNAL_ROLE && reference.length > 0 && grant.role) {
    errors.externalReference = 'Only the external role takes an external reference.';
  }
  if (hasControlCharacter(reference, { singleLine: true }))
    errors.externalReference = CONTROL_CHARACTER_MESSAGE;
  return errors;
}

/**
 * Save is enabled when every required field is filled, nothing is in progress, the form is dirty,
 * and the password (when typed) meets the policy and its repeat matches.
 */
export function canSaveUserForm(
  form: Partial<UserForm>,
  rules: UserFormRules,
  state: { dirty: boolean; busy: boolean },
): boolean {
  return state.dirty && !state.busy && Object.keys(validateUserForm(form, rules)).length === 0;
}

/**
 * The IP range of a user in a scope: the current one when the scope has it, else the scope's
 * default range, else its first. A new user starts with it, and so does a change of scope.
 */
export function ipRangeForScope(
  current: string | null | undefined,
  ranges: readonly { id: string; isDefault?: boolean }[],
): string | null {
  if (ranges.some((r) => r.id === current)) return current ?? null;
  return (ranges.find((r) => r.isDefault) ?? ranges[0])?.id ?? null;
}

/** Changing the role scope of the add-role subview clears a role not offered at the new scope. */
export function roleForScope(current: string | undefined, offered: readonly string[]): string | undefined {
  return current !== undefined && offered.includes(current) ? current : undefined;
}

/**
 * The password fields are hidden when single sign-on is on and password handling is off,
 * or for a user with an external id (its identity provider holds the password). The one rule of
 * the account page and the admin user form.
 */
export function passwordFieldsShown(
  singleSignOn: { enablePasswordHandling: boolean } | undefined,
  externalUserId: string | null | undefined,
): boolean {
  if (singleSignOn && !singleSignOn.enablePasswordHandling) return false;
  return !externalUserId;
}
