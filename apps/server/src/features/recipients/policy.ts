import { type Actor, mayAtScope, ownerScopeFor } from '../auth/index.js';

// Every recipient may be viewed and chosen by whoever has recipient:view (the directory is shared),
// but it belongs to the scope it was created in: only editors at that scope, or above it, change it.
// Entries of the root are shared by everyone and changed at the root only.

export function mayEditRecipient(actor: Actor, scope: string): boolean {
  return mayAtScope(actor, 'recipient:edit', scope);
}

export function newRecipientScope(actor: Actor): string {
  return ownerScopeFor(actor, 'recipient:edit');
}

export const notYourRecipient = (scope: string) =>
  `This recipient belongs to ${scope}: only its editors there may change it.`;
