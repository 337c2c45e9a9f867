import { z } from 'zod';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from './inputRules.js';
import { EXTERNAL_ROLE } from './permissions.js';

// The user form of the account page, self-registration and user administration (sections
// 3 and 5). The shape is checked by zod on the server; the rules, with their messages per field,
// are functions run by the form before saving and by the server again: these, and those that
// check phone numbers in userFormRules.ts (apart, so the pages that only name this shape, such as
// the password pages, load no phone number rules).

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
