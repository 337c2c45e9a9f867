import { isWithinScope, type Permission } from '@dossier/core';
import type { FastifyRequest } from 'fastify';
import { forbidden } from '../../http/errors.js';
import { type Actor, requirePermission, scopesWithPermission } from '../auth/index.js';

// Who may see and change configuration: configuration:view / configuration:edit, in the scopes of
// the roles that grant them. A configuration is within reach when its scope path lies inside one of
// those scopes.

export function canReachScope(actor: Actor, permission: Permission, scopePath: string): boolean {
  return scopesWithPermission(actor, permission).some((scope) => isWithinScope(scopePath, scope));
}

/**
 * Viewing also reaches the configurations above the actor's scopes: an administrator of
 * /org/acme/ sees (read-only) the root configuration its own one inherits from.
 */
export function canViewScope(actor: Actor, scopePath: string): boolean {
  return scopesWithPermission(actor, 'configuration:view').some(
    (scope) => isWithinScope(scopePath, scope) || isWithinScope(scope, scopePath),
  );
}

/** The actor when it may view configuration at all; 403 otherwise. */
export function requireConfigurationViewer(request: FastifyRequest): Actor {
  return requirePermission(request, 'configuration:view');
}

/** Strict: the configuration lies within a scope where the actor has configuration:view. */
export function assertCanView(actor: Actor, scopePath: string): void {
  if (!canReachScope(actor, 'configuration:view', scopePath)) throw forbidden();
}

/** The editor pages also show, read-only, the configurations above the actor's scopes. */
export function assertCanRead(actor: Actor, scopePath: string): void {
  if (!canViewScope(actor, scopePath)) throw forbidden();
}

export function assertCanEdit(actor: Actor, scopePath: string): void {
  if (!canReachScope(actor, 'configuration:edit', scopePath)) throw forbidden();
}

export function canEdit(actor: Actor, scopePath: string): boolean {
  return canReachScope(actor, 'configuration:edit', scopePath);
}
