import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

// What a session's actor is read from: the session, its user and the user's roles. A write to one of
// them tells this instance's session caches to forget what they hold, as the statement is built, so
// the writer's next request reads the change. Other instances hear it from the database's NOTIFY
// (migration 20261129_0001), which also covers writes that do not go through Kysely's builders.
// A statement that builds but never runs (a rolled-back one too) makes caches forget for nothing: harmless.

/** The channel migration 20261129_0001's triggers notify on. */
export const SESSION_CHANGE_CHANNEL = 'dossier_sessions';

const TABLES = new Set(['sessions', 'users', 'user_roles']);
/** The users columns an actor is built from (the trigger of migration 20261129_0001 names the same). */
const ACTOR_COLUMNS = new Set(['id', 'name', 'email', 'scope', 'language', 'country', 'disabled']);

type Listener = () => void;
const listeners = new Set<Listener>();

/** Calls `listener` on every write to what actors are read from; answers the unsubscribe. */
export function onSessionStateWrite(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const nameOf = (node: OperationNode | undefined): string | undefined => {
  if (!node) return undefined;
  const n = node as { kind: string; node?: OperationNode; table?: { identifier: { name: string } } };
  if (n.kind === 'AliasNode') return nameOf(n.node);
  return n.kind === 'TableNode' ? n.table?.identifier.name : undefined;
};

const columnName = (node: OperationNode): string =>
  (node as { column?: { name?: string } }).column?.name ?? '';

/** Whether a statement writes what an actor is read from. */
export function writesSessionState(node: RootOperationNode): boolean {
  switch (node.kind) {
    case 'DeleteQueryNode':
      return node.from.froms.some((from) => TABLES.has(nameOf(from) ?? ''));
    case 'InsertQueryNode':
      // A new session or user has no cached actor; a new role changes its user's.
      return nameOf(node.into) === 'user_roles';
    case 'UpdateQueryNode': {
      // Touching a session is written in raw SQL (features/auth/repository.ts#touchSession), unseen.
      const table = nameOf(node.table);
      if (table !== 'users') return TABLES.has(table ?? '');
      // A sign-in's failure count or a new password hash changes no actor (a password change ends
      // the sessions by deleting them).
      return (node.updates ?? []).some((u) => ACTOR_COLUMNS.has(columnName(u.column)));
    }
    default:
      return false;
  }
}

export class SessionWritesPlugin implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (writesSessionState(node)) for (const listener of listeners) listener();
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}
