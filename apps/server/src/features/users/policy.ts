import { isWithinScope, type Permission, type RoleGrant } from '@dossier/core';
import type { Actor } from '../auth/index.js';
import { scopesWithPermission } from '../auth/index.js';

// Who may see and change which user: an administrator acts only on users whose scope lies inside
// a scope where it holds the permission, and grants or removes roles only inside those scopes.

export function userScopes(
  actor: Actor,
  permission: Extract<Permission, 'user:view' | 'user:edit'>,
): string[] {
  return scopesWithPermission(actor, permission);
}

export function mayActOnScope(actor: Actor, permission: 'user:view' | 'user:edit', scope: string): boolean {
  return userScopes(actor, permission).some((s) => isWithinScope(scope, s));
}

/**
 * An administrator changes, resets, disables or mails a user only when its edit scopes cover every
 * role of that user: else an administrator of one organisation could take over an account that
 * reaches every organisation (a handler at /) by setting its password.
 */
export function mayManageUser(actor: Actor, user: { scope: string; roles: RoleGrant[] }): boolean {
  return managesUser(userScopes(actor, 'user:edit'), user);
}

/**
 * The rule of mayManageUser for an administrator whose user:edit scopes are `scopes`. Lists answered
 * in SQL use its form there, manageableUsers (repository.ts).
 */
export function managesUser(scopes: readonly string[], user: { scope: string; roles: RoleGrant[] }): boolean {
  const covered = (path: string) => scopes.some((s) => isWithinScope(path, s));
  return covered(user.scope) && user.roles.every((g) => covered(g.scope));
}

export const WIDER_ROLES =
  'This user holds roles outside your scopes: only an administrator of those scopes may change it.';
