import type {
  IdentifierNode,
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RawNode,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

// Caches kept in this instance (sessions, home pages) must forget what a write of this instance
// changes before its writer's next request, without waiting for the NOTIFY that tells the other
// instances after the commit. Every statement built through Kysely here is shown to the listeners
// as it is built; each decides whether it writes what it keeps. A statement that builds but never
// runs (a rolled-back one too) makes a cache forget for nothing: harmless.

type Listener = (node: RootOperationNode) => void;
const listeners = new Set<Listener>();

/** Calls `listener` with every statement built; answers the unsubscribe. */
export function onStatement(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The name of a table node (through an alias), if it is one. */
export function tableNameOf(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  const n = node as { kind: string; node?: OperationNode; table?: { identifier: { name: string } } };
  if (n.kind === 'AliasNode') return tableNameOf(n.node);
  return n.kind === 'TableNode' ? n.table?.identifier.name : undefined;
}

/** A write in raw SQL: the table after insert into, update or delete from (a CTE's too). */
const RAW_WRITE = /\b(?:insert\s+into|update|delete\s+from)\s+"?([a-z_][a-z0-9_]*)/gi;

/**
 * A raw statement's text with the fragments and names put in it (sql`` nested in sql``, sql.table,
 * sql.id); a value is a placeholder.
 */
function rawText(node: OperationNode): string {
  switch (node.kind) {
    case 'RawNode': {
      const { sqlFragments, parameters } = node as RawNode;
      return sqlFragments
        .map((fragment, i) => fragment + (parameters[i] ? rawText(parameters[i]) : ''))
        .join('');
    }
    case 'TableNode':
    case 'AliasNode':
      return tableNameOf(node) ?? '?';
    case 'IdentifierNode':
      return (node as IdentifierNode).name;
    case 'InsertQueryNode':
    case 'UpdateQueryNode':
    case 'DeleteQueryNode':
    case 'MergeQueryNode':
      // A builder's write inside raw SQL, named as raw SQL would name it.
      return tablesWritten(node as RootOperationNode)
        .map((t) => ` update ${t} `)
        .join('');
    default:
      return '?';
  }
}

/**
 * The tables a statement writes: for a raw one, every table its text names after insert into,
 * update or delete from (a word in a string literal may add one too many, never one too few).
 */
export function tablesWritten(node: RootOperationNode): string[] {
  switch (node.kind) {
    case 'InsertQueryNode':
      return [tableNameOf(node.into)].filter((t) => t !== undefined);
    case 'UpdateQueryNode':
      return [tableNameOf(node.table)].filter((t) => t !== undefined);
    case 'DeleteQueryNode':
      return node.from.froms.map(tableNameOf).filter((t) => t !== undefined);
    case 'MergeQueryNode':
      return [tableNameOf(node.into)].filter((t) => t !== undefined);
    case 'RawNode':
      return [...rawText(node).matchAll(RAW_WRITE)].map((m) => (m[1] ?? '').toLowerCase());
    default:
      return [];
  }
}

export class StatementsPlugin implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    for (const listener of listeners) listener(node);
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}
