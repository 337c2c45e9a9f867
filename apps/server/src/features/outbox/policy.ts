import { isWithinScope } from '@dossier/core';
import { forbidden } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { scopesWithPermission } from '../auth/index.js';

// Who may read and re-send which outgoing mail. Mail is scoped like what it is about: an
// administrator holding mail:view at a scope reads the mail of that scope and below (a request's
// mail has the request's scope, an account mail the user's); mail:edit there lets it queue a
// failed message again. Mail of other scopes is not listed and answers 404 when asked for.

export function mailScopes(actor: Actor, permission: 'mail:view' | 'mail:edit'): string[] {
  return scopesWithPermission(actor, permission);
}

export function mayReachMail(actor: Actor, permission: 'mail:view' | 'mail:edit', scope: string): boolean {
  return mailScopes(actor, permission).some((s) => isWithinScope(scope, s));
}

/** 403 for a user without mail:view anywhere. */
export function requireMailView(actor: Actor): Actor {
  if (!actor.permissions.includes('mail:view') || mailScopes(actor, 'mail:view').length === 0)
    throw forbidden();
  return actor;
}
