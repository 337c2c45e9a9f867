import type { OperationNode, RootOperationNode } from 'kysely';
import { onStatement, tableNameOf } from './writes.js';

// What a session's actor is read from: the session, its user and the user's roles. A write to one of
// them tells this instance's session caches to forget what they hold, as the statement is built
// (db/writes.ts), so the writer's next request reads the change. Other instances hear it from the
// database's NOTIFY (migration 20261129_0001), which also covers writes that do not go through
// Kysely's builders.

/** The channel migration 20261129_0001's triggers notify on. */
export const SESSION_CHANGE_CHANNEL = 'dossier_sessions';

const TABLES = new Set(['sessions', 'users', 'user_roles']);
/** The users columns an actor is built from (the trigger of migration 20261129_0001 names the same). */
const ACTOR_COLUMNS = new Set(['id', 'name', 'email', 'scope', 'language', 'country', 'disabled']);

/** Calls `listener` on every write to what actors are read from; answers the unsubscribe. */
export function onSessionStateWrite(listener: () => void): () => void {
  return onStatement((node) => {
    if (writesSessionState(node)) listener();
  });
}

const columnName = (node: OperationNode): string =>
  (node as { column?: { name?: string } }).column?.name ?? '';

/** Whether a statement writes what an actor is read from. */
export function writesSessionState(node: RootOperationNode): boolean {
  switch (node.kind) {
    case 'DeleteQueryNode':
      return node.from.froms.some((from) => TABLES.has(tableNameOf(from) ?? ''));
    case 'InsertQueryNode':
      // A new session or user has no cached actor; a new role changes its user's.
      return tableNameOf(node.into) === 'user_roles';
    case 'UpdateQueryNode': {
      // Touching a session is written in raw SQL (features/auth/repository.ts#touchSession), unseen.
      const table = tableNameOf(node.table);
      if (table !== 'users') return TABLES.has(table ?? '');
      // A sign-in's failure count or a new password hash changes no actor (a password change ends
      // the sessions by deleting them).
      return (node.updates ?? []).some((u) => ACTOR_COLUMNS.has(columnName(u.column)));
    }
    default:
      return false;
  }
}
