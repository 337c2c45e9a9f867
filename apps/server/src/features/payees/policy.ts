import { type Actor, mayAtScope, ownerScopeFor } from '../auth/index.js';

// Every payee may be viewed and paid by whoever has payee:view (the directory is shared), but it
// belongs to the scope it was created in: only editors at that scope, or above it, change it, so
// one organisation cannot redirect the payments another makes. Root entries change at the root only.

export function mayEditPayee(actor: Actor, scope: string): boolean {
  return mayAtScope(actor, 'payee:edit', scope);
}

export function newPayeeScope(actor: Actor): string {
  return ownerScopeFor(actor, 'payee:edit');
}

export const notYourPayee = (scope: string) =>
  `This payee belongs to ${scope}: only its editors there may change it.`;
