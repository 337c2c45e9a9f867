import { isWithinScope, type Permission } from '@dossier/core';
import type { Actor } from '../auth/actor.js';
import { scopesWithPermission } from '../auth/actor.js';

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
