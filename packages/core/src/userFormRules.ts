import { normalizeCountry } from './countries.js';
import {
  checkPassword,
  checkPasswordRepeat,
  DEFAULT_PASSWORD_POLICY,
  type PasswordPolicy,
} from './passwordPolicy.js';
import { normalizePhone } from './phone.js';
import { type FieldErrors, requiredMessage, type UserForm } from './userForm.js';
import { validateEmail, validateUserId } from './validators.js';

// The rules of the user form (userForm.ts) that check phone numbers, with libphonenumber: the
// account page, self-registration and the admin user form run them before saving, the server
// again.

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
