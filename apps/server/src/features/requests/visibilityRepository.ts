import { EXTERNAL_ROLE, type Permission, permissionsOfRole, ROLES } from '@dossier/core';
import { type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { scopeAtOrUnder, scopeCovers } from '../../db/scopes.js';
import type { Actor } from '../auth/index.js';
import { grantsOf, SENDER_ROLES } from './policy.js';

// The viewing rule of policy.ts as SQL conditions, for every list, count and search of requests.

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
