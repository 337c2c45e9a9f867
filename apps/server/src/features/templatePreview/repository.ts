import type { DbOrTrx } from '../../db/database.js';
import { likeStartsWith } from '../../db/search.js';
import type { Actor } from '../auth/index.js';
import { visibleRequests } from '../requests/index.js';

/** The newest request of the scope (or below it) that the actor may view, if any. */
export function newestVisibleRequest(db: DbOrTrx, actor: Actor, scopePath: string) {
  return db
    .selectFrom('requests')
    .selectAll()
    .where('scope', 'like', likeStartsWith(scopePath))
    .where(visibleRequests(actor))
    .orderBy('submitted_at', 'desc')
    .orderBy('request_number', 'desc')
    .limit(1)
    .executeTakeFirst();
}
