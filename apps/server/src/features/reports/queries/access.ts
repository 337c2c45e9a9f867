import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { scopeAtOrUnder } from '../../../db/scopes.js';
import type { Actor } from '../../auth/index.js';
import { scopesWithPermission } from '../../auth/index.js';

// Who sees what in a report: the rows of the scopes where the actor holds reports:view (a role
// covers its scope and everything below it). Every role that grants reports:view also grants
// request:view (packages/core permissions; tested), so these rows are a subset of what the actor
// may see anyway. Request-based reports additionally apply visibleRequests(actor) from the request
// policy; task rows carry the scope of their request and are filtered on it directly, which keeps a
// year of tasks an index-only scan rather than a join with a million requests.

export function reportScopes(actor: Actor): string[] {
  return scopesWithPermission(actor, 'reports:view');
}

/** A condition on a scope column (e.g. sql.ref('t.scope')): true inside the actor's report scopes. */
export function withinReportScopes(actor: Actor, column: RawBuilder<unknown>): RawBuilder<SqlBool> {
  return withinScopes(reportScopes(actor), column);
}

export function withinScopes(scopes: readonly string[], column: RawBuilder<unknown>): RawBuilder<SqlBool> {
  if (scopes.includes('/')) return sql<SqlBool>`true`;
  if (scopes.length === 0) return sql<SqlBool>`false`;
  return sql<SqlBool>`(${sql.join(
    scopes.map((s) => scopeAtOrUnder(column, s)),
    sql` or `,
  )})`;
}
