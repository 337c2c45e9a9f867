import type { DbOrTrx } from '../../db/database.js';
import type { LiveHub } from '../../live/hub.js';
import * as repo from './repository.js';

/**
 * Ends the user's sessions (all, or all but the one making the change): a changed password, an
 * administrator's reset or disabling must lock out whoever held the old credentials. Sessions are
 * read from the database on every request, so deleting them ends them on every instance; their live
 * sockets are closed through the hub, which reaches every instance too.
 */
export async function endUserSessions(
  db: DbOrTrx,
  live: LiveHub | undefined,
  userId: string,
  keepSessionId?: string,
): Promise<number> {
  const ended = await repo.deleteUserSessions(db, userId, keepSessionId);
  for (const id of ended) await live?.endSession(db, id);
  return ended.length;
}
