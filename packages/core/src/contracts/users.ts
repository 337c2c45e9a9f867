import { z } from 'zod';
import { passwordPolicySchema } from '../configuration/entries.js';
import { pagingQuerySchema, searchAnswerSchema } from '../searchResult.js';
import { SECOND_FACTOR_KINDS } from '../secondFactor.js';
import { userFormSchema } from '../userForm.js';
import { userFieldsSchema } from './account.js';
import { defineRoute } from './route.js';
import { defineView, historyEntrySchema } from './view.js';

// User administration: the list page, the edit page and the decision on a claimed role.

/** A role a user claimed at an administrator's scope, waiting for a decision (list page). */
export const waitingClaimSchema = z.object({
  id: z.string(),
  userId: z.string(),
  userName: z.string(),
  role: z.string(),
  claimedAt: z.string(),
});
export type WaitingClaim = z.infer<typeof waitingClaimSchema>;

export const adminUsersViewSchema = defineView('adminUsers', {
  canCreateNew: z.boolean(),
  pendingRoleClaims: z.array(waitingClaimSchema).optional(),
});
export type AdminUsersView = z.infer<typeof adminUsersViewSchema>;

/** A role the user claimed, on its edit page. */
export const pendingRoleSchema = z.object({
  id: z.string(),
  role: z.string(),
  claimedAt: z.string(),
  canDecide: z.boolean(),
});
export type PendingRole = z.infer<typeof pendingRoleSchema>;

export const scopeOptionSchema = z.object({
  scopePath: z.string(),
  name: z.string(),
  ipRanges: z.array(z.object({ id: z.string(), isDefault: z.boolean() })),
  passwordPolicy: passwordPolicySchema,
});
export type ScopeOption = z.infer<typeof scopeOptionSchema>;

export const roleScopeOptionSchema = z.object({ scopePath: z.string(), roles: z.array(z.string()) });
export type RoleScopeOption = z.infer<typeof roleScopeOptionSchema>;

export const adminUserViewSchema = defineView('adminUser', {
  userId: z.string().nullable(),
  canEdit: z.boolean(),
  action: z.string().nullable(),
  user: userFieldsSchema.extend({
    scope: z.string(),
    roles: z.array(z.string()),
    disabled: z.boolean(),
    passwordMustBeChangedAtNextLogin: z.boolean(),
    isTemporaryLockedOut: z.boolean().optional(),
    externalUserId: z.string().nullable(),
    ipRange: z.string().nullable(),
    version: z.number(),
  }),
  scopes: z.array(scopeOptionSchema),
  roleScopes: z.array(roleScopeOptionSchema),
  /** Organisation names of scope paths, for role chips and the scope choices. */
  scopeNames: z.record(z.string(), z.string()).optional(),
  history: z.array(historyEntrySchema),
  pendingRoles: z.array(pendingRoleSchema).optional(),
  /** Who or what linked the account to single sign-on: a user id, or scim:<configuration>/<entry>. */
  externalUserIdSetBy: z.string().nullable().optional(),
  /** The roles the identity provider's groups grant, with the groups' names (SCIM). */
  roleGroups: z.record(z.string(), z.array(z.string())).optional(),
  /** Why an administrator of the user's scope still may not change it. */
  readOnlyReason: z.string().optional(),
  /** The kinds of second factor the user holds (never their secrets); empty when none. */
  secondFactors: z.array(z.enum(SECOND_FACTOR_KINDS)).optional(),
});
export type AdminUserView = z.infer<typeof adminUserViewSchema>;

/** The answer to a refused claim of a user the administrator may no longer see. */
export const roleClaimDecidedSchema = z.object({
  $type: z.literal('roleClaimDecided'),
  userId: z.string(),
  decision: z.enum(['approve', 'refuse']),
});
export type RoleClaimDecided = z.infer<typeof roleClaimDecidedSchema>;

// ---- Routes of user administration (apps/server/src/features/users)

export const adminUsersRoute = defineRoute({
  method: 'GET',
  path: '/admin/users',
  answer: adminUsersViewSchema,
});

/** A line of the user search. */
export const userSummarySchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  scope: z.string(),
  disabled: z.boolean(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

export const searchUsersRoute = defineRoute({
  method: 'GET',
  path: '/admin/users/search',
  query: pagingQuerySchema.extend({
    name: z.string().max(200).optional(),
    phone: z.string().max(40).optional(),
    email: z.string().max(254).optional(),
    scope: z.string().max(500).optional(),
    externalUserReference: z.string().max(200).optional(),
  }),
  answer: searchAnswerSchema(userSummarySchema),
});

const userParams = z.object({ userId: z.string().max(100) });
/** A subview of the edit page to open (add a role). */
const actionQuery = z.object({ action: z.string().max(20).optional() });

export const newUserRoute = defineRoute({
  method: 'GET',
  path: '/admin/users/edit',
  query: actionQuery,
  answer: adminUserViewSchema,
});

export const userRoute = defineRoute({
  method: 'GET',
  path: '/admin/users/edit/:userId',
  params: userParams,
  query: actionQuery,
  answer: adminUserViewSchema,
});

/*
 * The user bodies are the form's shape; its rules (validateUserForm) need the password policy of
 * the scope chosen, which only the server knows for sure: the page runs them with the policy its
 * view names, the server again with the stored one, after it has checked the caller may change
 * the user at all.
 */

/** POST /admin/users/edit: creates a user; answers its page. */
export const createUserRoute = defineRoute({
  method: 'POST',
  path: '/admin/users/edit',
  body: userFormSchema,
  answer: adminUserViewSchema,
});

export const updateUserRoute = defineRoute({
  method: 'POST',
  path: '/admin/users/edit/:userId',
  params: userParams,
  body: userFormSchema,
  answer: adminUserViewSchema,
});

/**
 * POST …/role-claims/{claimId}/{decision}: approves or refuses a claimed role; the refreshed page,
 * or roleClaimDecided when the administrator may no longer see the user.
 */
export const decideRoleClaimRoute = defineRoute({
  method: 'POST',
  path: '/admin/users/edit/:userId/role-claims/:claimId/:decision',
  params: userParams.extend({
    claimId: z.string().regex(/^\d{1,18}$/, 'Not a role claim.'),
    decision: z.enum(['approve', 'refuse']),
  }),
  answer: z.union([roleClaimDecidedSchema, adminUserViewSchema]),
});

/** POST …/unlink-sso: the account no longer signs in by single sign-on; the refreshed page. */
export const unlinkSingleSignOnRoute = defineRoute({
  method: 'POST',
  path: '/admin/users/edit/:userId/unlink-sso',
  params: userParams,
  answer: adminUserViewSchema,
});

/** POST …/clear-lockout: ends a temporary lockout after failed sign-ins. */
export const clearLockoutRoute = defineRoute({
  method: 'POST',
  path: '/admin/users/edit/:userId/clear-lockout',
  params: userParams,
  answer: z.object({ cleared: z.boolean() }),
});
