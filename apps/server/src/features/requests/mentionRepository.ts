import { type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import { escapeLike } from '../../db/search.js';
import type { RequestRow } from './repository.js';

// Who can be @mentioned in a note on a request: the people who work it or follow it, i.e. users with
// a handler, admin or submitter role at the request's scope or above (their role covers it).
// External users are left out: they see the request only through a reference, not as a team.

export const MENTION_SUGGESTIONS_LIMIT = 10;
const MENTIONABLE_ROLES = ['c:roles:admin', 'c:roles:handler', 'c:roles:submitter'];

function mentionableQuery(db: DbOrTrx, scope: string) {
  return db
    .selectFrom('users as u')
    .select(['u.id', 'u.name'])
    .where('u.disabled', '=', false)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_roles as r')
          .select('r.id')
          .whereRef('r.user_id', '=', 'u.id')
          .where('r.role', 'in', MENTIONABLE_ROLES)
          // The role's scope is the request's scope or an ancestor of it.
          .where(sql<SqlBool>`left(${scope}::text, length(r.scope)) = r.scope`),
      ),
    );
}

/** Up to 10 users whose name or id starts with the prefix (or whose name has a word starting with it). */
export function suggestMentions(db: DbOrTrx, request: Pick<RequestRow, 'scope'>, prefix: string) {
  const p = escapeLike(prefix.toLowerCase());
  return mentionableQuery(db, request.scope)
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['u.name']), 'like', `${p}%`),
        eb(eb.fn('lower', ['u.name']), 'like', `% ${p}%`),
        eb(eb.fn('lower', ['u.id']), 'like', `${p}%`),
      ]),
    )
    .orderBy('u.name')
    .orderBy('u.id')
    .limit(MENTION_SUGGESTIONS_LIMIT)
    .execute();
}

/** The subset of user ids that may be mentioned on the request (others are ignored, not notified). */
export async function mentionableUsers(
  db: DbOrTrx,
  request: Pick<RequestRow, 'scope'>,
  userIds: string[],
): Promise<{ id: string; name: string }[]> {
  if (userIds.length === 0) return [];
  return mentionableQuery(db, request.scope).where('u.id', 'in', userIds.slice(0, 50)).execute();
}
