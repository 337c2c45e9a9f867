import { z } from 'zod';
import { passwordPolicySchema } from '../configuration/entries.js';
import { userFieldsSchema } from './account.js';
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
  history: z.array(historyEntrySchema),
  pendingRoles: z.array(pendingRoleSchema).optional(),
  /** Who or what linked the account to single sign-on: a user id, or scim:<configuration>/<entry>. */
  externalUserIdSetBy: z.string().nullable().optional(),
  /** The roles the identity provider's groups grant, with the groups' names (SCIM). */
  roleGroups: z.record(z.string(), z.array(z.string())).optional(),
  /** Why an administrator of the user's scope still may not change it. */
  readOnlyReason: z.string().optional(),
});
export type AdminUserView = z.infer<typeof adminUserViewSchema>;

/** The answer to a refused claim of a user the administrator may no longer see. */
export const roleClaimDecidedSchema = z.object({
  $type: z.literal('roleClaimDecided'),
  userId: z.string(),
  decision: z.enum(['approve', 'refuse']),
});
export type RoleClaimDecided = z.infer<typeof roleClaimDecidedSchema>;
