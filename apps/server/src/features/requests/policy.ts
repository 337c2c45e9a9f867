import { EXTERNAL_ROLE, isWithinScope, type Permission, permissionsOfRole } from '@dossier/core';
import { type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { likeStartsWith } from '../../db/search.js';
import type { Actor } from '../auth/index.js';

// Who may see and work a request. A role covers its scope and everything below it: a submitter at
// /org/acme/ sees Acme's requests, a handler at / sees all. An external user (an advisor) sees only
// the requests that carry its external reference, inside the scope of that role. The same rule is
// applied twice: as a SQL filter for lists and searches, and as a check on one loaded request.

export interface RequestAccessRow {
  scope: string;
  external_user_references: string[];
}

interface Grants {
  scopes: string[];
  external: { scope: string; reference: string }[];
}

function grantsOf(actor: Actor, permission: Permission): Grants {
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

const SENDER_ROLES: readonly string[] = ['c:roles:submitter', EXTERNAL_ROLE];

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

/**
 * isRequestStaff as a WHERE condition on `requests`: the requests the actor views through a role
 * other than submitter or external. Lists of results use it to keep results awaiting quality
 * assurance from the sender side.
 */
export function staffRequests(actor: Actor) {
  const scopes = actor.roles
    .filter((g) => !SENDER_ROLES.includes(g.role) && permissionsOfRole(g.role).includes('request:view'))
    .map((g) => g.scope);
  return (eb: ExpressionBuilder<Database, 'requests'>) => {
    if (scopes.includes('/')) return sql<SqlBool>`true`;
    if (scopes.length === 0) return sql<SqlBool>`false`;
    return eb.or(scopes.map((scope) => eb('requests.scope', 'like', likeStartsWith(scope))));
  };
}

/**
 * A WHERE condition on `requests` (aliased or not) matching what the actor may view; use it in
 * every list, count and search. Matches nothing for an actor without request:view.
 */
export function visibleRequests(actor: Actor, permission: Permission = 'request:view') {
  const grants = grantsOf(actor, permission);
  return (eb: ExpressionBuilder<Database, 'requests'>) => {
    const any: ReturnType<typeof eb.and>[] = [];
    if (grants.scopes.includes('/')) return sql<SqlBool>`true`;
    for (const scope of grants.scopes)
      any.push(eb.and([eb('requests.scope', 'like', likeStartsWith(scope))]));
    for (const g of grants.external) {
      any.push(
        eb.and([
          eb('requests.scope', 'like', likeStartsWith(g.scope)),
          sql<SqlBool>`requests.external_user_references @> array[${g.reference}]::text[]`,
        ]),
      );
    }
    return any.length === 0 ? sql<SqlBool>`false` : eb.or(any);
  };
}
