import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { likeStartsWith } from './search.js';

// "Scope A is at or under scope B" is a prefix test on scope paths. Written once here: `_` and `%`
// are valid in scope ids but are LIKE wildcards, so a hand-written `like scope || '%'` lets a role at
// /org/a_b/ cover /org/axb/.

/** True where the scope in `column` is `scope` or below it. A LIKE prefix, so a btree index serves it. */
export function scopeAtOrUnder(column: RawBuilder<unknown>, scope: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${column} like ${likeStartsWith(scope)}`;
}

/**
 * True where the scope in `column` (a role's scope, say) covers `scope`: `scope` is at or under it.
 * `scope` is a path, or another column (a request's scope).
 */
export function scopeCovers(
  column: RawBuilder<unknown>,
  scope: string | RawBuilder<unknown>,
): RawBuilder<SqlBool> {
  return sql<SqlBool>`starts_with(${scope}::text, ${column})`;
}
