import { EXTERNAL_ROLE, isWithinScope, type Permission, permissionsOfRole, ROLES } from '@dossier/core';
import { type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { scopeAtOrUnder, scopeCovers } from '../../db/scopes.js';
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
  const staffOf = staffScopes(actor);
  return (_eb: ExpressionBuilder<Database, 'requests'>) => staffOf(sql.ref('requests.scope'));
}

/** staffRequests on any column holding a request's scope (a row's kept copy, say). */
export function staffScopes(actor: Actor) {
  const scopes = actor.roles
    .filter((g) => !SENDER_ROLES.includes(g.role) && permissionsOfRole(g.role).includes('request:view'))
    .map((g) => g.scope);
  return (scope: RawBuilder<unknown>): RawBuilder<SqlBool> => {
    if (scopes.includes('/')) return sql<SqlBool>`true`;
    if (scopes.length === 0) return sql<SqlBool>`false`;
    return sql<SqlBool>`(${sql.join(
      scopes.map((s) => scopeAtOrUnder(scope, s)),
      sql` or `,
    )})`;
  };
}

/**
 * A WHERE condition on `requests` (aliased or not) matching what the actor may view; use it in
 * every list, count and search. Matches nothing for an actor without request:view.
 */
export function visibleRequests(actor: Actor, permission: Permission = 'request:view') {
  const visible = visibleScopes(actor, permission);
  return (_eb: ExpressionBuilder<Database, 'requests'>) => visible(REQUEST_ACCESS_COLUMNS);
}

/** Where a request's scope and external references are read from. */
export interface RequestAccessColumns {
  scope: RawBuilder<unknown>;
  externalUserReferences: RawBuilder<unknown>;
}

const REQUEST_ACCESS_COLUMNS: RequestAccessColumns = {
  scope: sql.ref('requests.scope'),
  externalUserReferences: sql.ref('requests.external_user_references'),
};

/**
 * visibleRequests on any columns holding a request's scope and external references: the dashboard
 * reads the copies its tasks, correspondence and results keep of their request's (migration 8001).
 */
export function visibleScopes(actor: Actor, permission: Permission = 'request:view') {
  const grants = grantsOf(actor, permission);
  return (c: RequestAccessColumns): RawBuilder<SqlBool> => {
    if (grants.scopes.includes('/')) return sql<SqlBool>`true`;
    const any = [
      ...grants.scopes.map((scope) => scopeAtOrUnder(c.scope, scope)),
      ...grants.external.map(
        (g) =>
          sql<SqlBool>`(${scopeAtOrUnder(c.scope, g.scope)} and ${c.externalUserReferences} @> array[${g.reference}]::text[])`,
      ),
    ];
    return any.length === 0 ? sql<SqlBool>`false` : sql<SqlBool>`(${sql.join(any, sql` or `)})`;
  };
}

/** The roles that let their holder view the requests of their scope (the external role needs more). */
const VIEWING_ROLES: string[] = ROLES.filter(
  (r) => r !== EXTERNAL_ROLE && permissionsOfRole(r).includes('request:view'),
);

/**
 * canViewRequest for a user named by a column (`userId`), reading the user's roles as they are in
 * the caller's transaction rather than from an actor: for those told of a request without asking
 * for it (live messages, who has it open), whose session may have begun before its roles changed.
 * A disabled user views nothing.
 */
export function userMayViewRequest(
  userId: RawBuilder<unknown>,
  c: RequestAccessColumns,
): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from user_roles vr join users vu on vu.id = vr.user_id
    where vr.user_id = ${userId} and not vu.disabled and ${scopeCovers(sql.ref('vr.scope'), c.scope)}
      and (vr.role in (${sql.join(VIEWING_ROLES)})
        or (vr.role = ${EXTERNAL_ROLE} and vr.external_reference is not null
          and ${c.externalUserReferences} @> array[vr.external_reference]::text[])))`;
}
