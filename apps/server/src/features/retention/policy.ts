import { forbidden } from '../../http/errors.js';
import { type Actor, scopesWithPermission } from '../auth/index.js';

// Retention and erasure (issue 36) are for administrators: retention:manage at a scope covers the
// requests of that scope and below. Another scope's requests are neither counted, run nor found.

export function retentionScopes(actor: Actor): string[] {
  return scopesWithPermission(actor, 'retention:manage');
}

/** The administrator's scopes; 403 for anyone without retention:manage anywhere. */
export function requireRetentionAdmin(actor: Actor): string[] {
  const scopes = retentionScopes(actor);
  if (scopes.length === 0) throw forbidden();
  return scopes;
}
