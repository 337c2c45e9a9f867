import { z } from 'zod';
import { passwordPolicySchema } from '../configuration/entries.js';
import { userFormSchema } from '../userForm.js';
import { emailSchema } from '../validators.js';
import { defineRoute } from './route.js';
import { defineView } from './view.js';

// The account pages: the own account and registration, their outcomes, and the password pages.

/** The fields of a user both the account page and user administration show. */
export const userFieldsSchema = z.object({
  userId: z.string().optional(),
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  country: z.string().optional(),
  language: z.string().optional(),
  alternatePhone: z.string().optional(),
  address: z.string().optional(),
  password: z.string().optional(),
});
export type UserFieldValues = z.infer<typeof userFieldsSchema>;

/** The own account (`account`) and the registration of a new one (`accountCreate`). */
export const accountViewSchema = z.strictObject({
  $type: z.enum(['account', 'accountCreate']),
  title: z.string().optional(),
  action: z.string().nullable().optional(),
  user: userFieldsSchema.extend({
    roles: z.array(z.string()),
    externalUserId: z.string().nullable().optional(),
    version: z.number().optional(),
    currentPassword: z.string().optional(),
  }),
  canChangePassword: z.boolean(),
  passwordPolicy: passwordPolicySchema,
  roleScopes: z.array(z.string()),
  /** Organisation names of scope paths: registration and role chips show names, not paths. */
  scopeNames: z.record(z.string(), z.string()).optional(),
  emailConfirmed: z.boolean().optional(),
  /** Claimed external roles waiting for an administrator's approval. */
  pendingRoles: z.array(z.string()).optional(),
  /** A new address waiting for its link to be followed; the account keeps its own until then. */
  pendingEmail: z.string().nullable().optional(),
});
export type AccountView = z.infer<typeof accountViewSchema>;

export const accountCreatedViewSchema = defineView('accountCreated', {
  userId: z.string(),
  email: z.string(),
});
export type AccountCreatedView = z.infer<typeof accountCreatedViewSchema>;

export const accountConfirmedViewSchema = defineView('accountConfirmed', {
  confirmed: z.boolean(),
  /** The link was opened before and worked then. */
  alreadyConfirmed: z.boolean().optional(),
  userId: z.string().nullable(),
});
export type AccountConfirmedView = z.infer<typeof accountConfirmedViewSchema>;

export const changePasswordViewSchema = defineView('changePassword', {
  username: z.string(),
  returnUrl: z.string(),
  passwordPolicy: passwordPolicySchema,
});
export type ChangePasswordView = z.infer<typeof changePasswordViewSchema>;

export const forgotPasswordViewSchema = defineView('forgotPassword', {
  /** Single sign-on with passwords off (and no break-glass account): no reset is offered. */
  passwordsOff: z.boolean().optional(),
});
export type ForgotPasswordView = z.infer<typeof forgotPasswordViewSchema>;

/** The answer to a password reset request: the same whether or not the address has an account. */
export const passwordResetRequestedSchema = defineView('passwordResetRequested', { email: z.string() });
export type PasswordResetRequested = z.infer<typeof passwordResetRequestedSchema>;

/** The page a reset link opens: the form, or (userId null) why the link no longer works. */
export const setPasswordViewSchema = defineView('setPassword', {
  userId: z.string().nullable(),
  error: z.string().optional(),
  firstPassword: z.boolean().optional(),
  passwordPolicy: passwordPolicySchema.optional(),
  requireRepeat: z.boolean().optional(),
});
export type SetPasswordView = z.infer<typeof setPasswordViewSchema>;

export const passwordChangedSchema = defineView('passwordChanged', {
  userId: z.string(),
  firstPassword: z.boolean(),
});
export type PasswordChanged = z.infer<typeof passwordChangedSchema>;

/** POST /reset-password: mails a reset link when the address has an account; the same answer either way. */
export const resetPasswordRoute = defineRoute({
  method: 'POST',
  path: '/reset-password',
  body: z.object({ email: emailSchema }),
  answer: passwordResetRequestedSchema,
});

/** POST /set-password: the new password for the user a reset or activation link names. */
export const setPasswordRoute = defineRoute({
  method: 'POST',
  path: '/set-password',
  body: z.object({
    token: z.string().min(10, 'The link is incomplete.').max(200),
    password: z.string().min(1, 'A password is required.').max(200),
    repeat: z.string().max(200).optional(),
  }),
  answer: passwordChangedSchema,
});

/** GET /account: the own account; `action` opens a part of it (the password change). */
export const accountPageRoute = defineRoute({
  method: 'GET',
  path: '/account',
  query: z.object({ action: z.string().max(20).optional() }),
  answer: accountViewSchema,
});

/** POST /account: saves the own account; answers the refreshed page. */
export const updateAccountRoute = defineRoute({
  method: 'POST',
  path: '/account',
  body: userFormSchema,
  answer: accountViewSchema,
});

/** GET /account/create: the registration form, where self-registration is offered. */
export const registrationPageRoute = defineRoute({
  method: 'GET',
  path: '/account/create',
  answer: accountViewSchema,
});

/** POST /account/create: registers an account; the same answer whether or not the address is taken. */
export const registerAccountRoute = defineRoute({
  method: 'POST',
  path: '/account/create',
  body: userFormSchema,
  answer: accountCreatedViewSchema,
});

/** GET /account/confirm: the link of a confirmation mail (a failed one answers 400). */
export const confirmAccountRoute = defineRoute({
  method: 'GET',
  path: '/account/confirm',
  query: z.object({ token: z.string().max(200).default('') }),
  answer: accountConfirmedViewSchema,
});

/** GET /account/change-password: the form for a password that must be replaced before signing in. */
export const changePasswordPageRoute = defineRoute({
  method: 'GET',
  path: '/account/change-password',
  query: z.object({
    username: z.string().max(200).optional(),
    'return-url': z.string().max(2000).optional(),
  }),
  answer: changePasswordViewSchema,
});

/** POST /account/change-password: replaces the password and signs in; answers where to go next. */
export const changePasswordRoute = defineRoute({
  method: 'POST',
  path: '/account/change-password',
  body: z.object({
    username: z.string().trim().min(1, 'Username is required.').max(200),
    password: z.string().min(1, 'Password is required.').max(1000),
    newPassword: z.string().min(1, 'Password is required.').max(200),
    returnUrl: z.string().max(2000).optional(),
  }),
  answer: z.strictObject({ ok: z.literal(true), returnUrl: z.string() }),
});
