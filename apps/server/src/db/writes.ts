import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

// A cache kept in this instance (the sessions') must forget what a write of this instance changes
// before its writer's next request, without waiting for the NOTIFY that tells the other instances
// after the commit. Every statement built through Kysely here is shown to the listeners as it is
// built; each decides whether it writes what it keeps. A statement that builds but never runs (a
// rolled-back one too) makes a cache forget for nothing: harmless.

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

export class StatementsPlugin implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    for (const listener of listeners) listener(node);
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}
