import { EXTERNAL_ROLE, isWithinScope, type Permission, permissionsOfRole } from '@dossier/core';
import type { Actor } from '../auth/index.js';

// Who may see and work a request. A role covers its scope and everything below it: a submitter at
// /org/acme/ sees Acme's requests, a handler at / sees all. An external user (an advisor) sees only
// the requests that carry its external reference, inside the scope of that role. The same rule is
// applied twice: as a check on one loaded request (here), and as a SQL filter for lists and
// searches (visibilityRepository.ts).

export interface RequestAccessRow {
  scope: string;
  external_user_references: string[];
}

interface Grants {
  scopes: string[];
  external: { scope: string; reference: string }[];
}

export function grantsOf(actor: Actor, permission: Permission): Grants {
  const grants: Grants = { scopes: [], external: [] };
  for (const role of actor.roles) {
    if (!permissionsOfRole(role.role).includes(permission)) continue;
    if (role.role === EXTERNAL_ROLE) {
      if (role.externalReference)
        grants.external.push({ scope: role.scope, reference: role.externalReference });
    } else grants.scopes.push(role.scope);
  }
  return grants;
}

function allows(grants: Grants, row: RequestAccessRow): boolean {
  if (grants.scopes.some((scope) => isWithinScope(row.scope, scope))) return true;
  return grants.external.some(
    (g) => isWithinScope(row.scope, g.scope) && row.external_user_references.includes(g.reference),
  );
}

export function canViewRequest(actor: Actor, row: RequestAccessRow): boolean {
  return allows(grantsOf(actor, 'request:view'), row);
}

/** Handling (issuing, results, invoices, tasks, closing) needs request:handle in the request's scope. */
export function canHandleRequest(actor: Actor, row: RequestAccessRow): boolean {
  return allows(grantsOf(actor, 'request:handle'), row);
}

/** The submitters' own side: notes and sender-side edits need request:submit in the request's scope. */
export function canSubmitterAct(actor: Actor, row: RequestAccessRow): boolean {
  return allows(grantsOf(actor, 'request:submit'), row);
}

/**
 * Urgent notes raise a senderUrgentNote task for the handlers, so only the two sides of the request
 * may add them: its handlers and the submitters of the sender organisation, while it is not closed.
 */
export function canAddUrgentNote(actor: Actor, row: RequestAccessRow & { status: string }): boolean {
  return row.status !== 'closed' && (canHandleRequest(actor, row) || canSubmitterAct(actor, row));
}

/**
 * The request's sender side, who answers its senderActionRequired tasks: a submitter of its
 * organisation or an external user whose reference it carries, who does not also handle it.
 */
export function isRequestSender(actor: Actor, row: RequestAccessRow): boolean {
  if (canHandleRequest(actor, row)) return false;
  const external = grantsOf(actor, 'request:view').external;
  return canSubmitterAct(actor, row) || allows({ scopes: [], external }, row);
}

export const SENDER_ROLES: readonly string[] = ['c:roles:submitter', EXTERNAL_ROLE];

/**
 * Staff of the request: who may view it through a role other than submitter or external. Results
 * reach the sender only after quality assurance, and invoices with their payments are staff
 * business, so only staff see results awaiting QA or discarded, and invoices at all.
 */
export function isRequestStaff(actor: Actor, row: RequestAccessRow): boolean {
  return actor.roles.some(
    (grant) =>
      !SENDER_ROLES.includes(grant.role) &&
      permissionsOfRole(grant.role).includes('request:view') &&
      isWithinScope(row.scope, grant.scope),
  );
}

/** A legal hold (issue 36) is placed and removed by managers and administrators of the request's scope. */
export function canHoldRequest(actor: Actor, row: RequestAccessRow): boolean {
  return allows({ scopes: grantsOf(actor, 'request:legalHold').scopes, external: [] }, row);
}
