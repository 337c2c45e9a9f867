import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// The import graph of one app's source, read with a regex over import and export specifiers: every
// `from '…'`, `import '…'` and `import('…')` with a relative path, resolved to a file. Type-only
// imports count too: a feature that needs another's types depends on it just the same.

export const repoRoot = resolve(import.meta.dirname, '../../../..');

export type ImportEdge = { from: string; to: string };

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function resolveSpecifier(fromFile: string, specifier: string): string | null {
  const base = resolve(dirname(fromFile), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Every relative import of the files under `srcDir`, as paths relative to `srcDir`. */
export function importEdges(srcDir: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(srcDir)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(SPECIFIER)) {
      const target = resolveSpecifier(file, match[1]!);
      if (!target) continue;
      edges.push({ from: toPosix(relative(srcDir, file)), to: toPosix(relative(srcDir, target)) });
    }
  }
  return edges;
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

/** `features/requests/service.ts` → `requests`; null outside the feature folders. */
export function featureOf(path: string): string | null {
  const match = /^features\/([^/]+)\//.exec(path);
  return match ? match[1]! : null;
}

/** Which feature imports which, with one file import as the example of each edge. */
export function featureGraph(edges: ImportEdge[]): Map<string, Map<string, ImportEdge>> {
  const graph = new Map<string, Map<string, ImportEdge>>();
  for (const edge of edges) {
    const from = featureOf(edge.from);
    const to = featureOf(edge.to);
    if (!from || !to || from === to) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    const targets = graph.get(from)!;
    if (!targets.has(to)) targets.set(to, edge);
  }
  return graph;
}

/** Groups of features that reach each other (Tarjan's strongly connected components, size > 1). */
export function featureCycles(graph: Map<string, Map<string, ImportEdge>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const lowlinks = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node)!, lowlinks.get(next)!));
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node)!, indices.get(next)!));
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return groups;
}

/** Pairs of features importing each other directly. */
export function mutualPairs(graph: Map<string, Map<string, ImportEdge>>): string[] {
  const pairs: string[] = [];
  for (const [from, targets] of graph) {
    for (const to of targets.keys()) {
      if (from < to && graph.get(to)?.has(from)) pairs.push(`${from}↔${to}`);
    }
  }
  return pairs.sort();
}

/** Imports from one feature into a file of another that is not that feature's `index.ts`. */
export function internalImports(edges: ImportEdge[]): ImportEdge[] {
  return edges.filter((edge) => {
    const from = featureOf(edge.from);
    const to = featureOf(edge.to);
    return from !== null && to !== null && from !== to && !/^features\/[^/]+\/index\.tsx?$/.test(edge.to);
  });
}

/** Imports from outside the features (the platform layer) into a feature. */
export function platformImportsOfFeatures(edges: ImportEdge[], platformDirs: string[]): ImportEdge[] {
  return edges.filter(
    (edge) => platformDirs.some((dir) => edge.from.startsWith(`${dir}/`)) && featureOf(edge.to) !== null,
  );
}
