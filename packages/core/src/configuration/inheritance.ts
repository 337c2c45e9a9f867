import { scopeAncestry } from '../scopePath.js';
import type { EntryType } from './enums.js';

// How entries are inherited: configurations are matched by scope path ancestry; entries by id.
// The effective entry for a scope is the nearest one walking from the scope up to '/'.

/** The id of a configuration's root entry (spec: "An id of c is the root entry"). */
export const ROOT_ENTRY_ID = 'c';

export interface StoredEntry {
  configurationId: string;
  /** The scope path of the configuration that holds the entry. */
  scopePath: string;
  id: string;
  parentId: string;
  type: EntryType;
  name: string;
  order: number;
  isDefault: boolean;
  isDisabled: boolean;
  data: unknown;
  version: number;
}

export interface StoredConfiguration {
  id: string;
  scopePath: string;
  name: string;
  order: number;
  isDisabled: boolean;
  entries: StoredEntry[];
}

/** Configurations that apply to a scope, nearest first; disabled configurations are skipped. */
export function configurationChain<C extends Pick<StoredConfiguration, 'scopePath' | 'isDisabled'>>(
  configurations: C[],
  scopePath: string,
  options: { includeDisabled?: boolean } = {},
): C[] {
  const byScope = new Map(configurations.map((c) => [c.scopePath, c]));
  const chain: C[] = [];
  for (const path of scopeAncestry(scopePath)) {
    const c = byScope.get(path);
    if (c && (options.includeDisabled || !c.isDisabled)) chain.push(c);
  }
  return chain;
}

/** The nearest entry per id over a chain of configurations (nearest first), disabled ones included. */
export function mergeEntries(chain: Pick<StoredConfiguration, 'entries'>[]): StoredEntry[] {
  const byId = new Map<string, StoredEntry>();
  for (const configuration of chain) {
    for (const entry of configuration.entries) if (!byId.has(entry.id)) byId.set(entry.id, entry);
  }
  return [...byId.values()];
}

/** Siblings in their order: the default first, then by order, then by name. */
export function compareEntries(a: StoredEntry, b: StoredEntry): number {
  if (a.isDefault !== b.isDefault) return a.isDefault ? -1 : 1;
  if (a.order !== b.order) return a.order - b.order;
  return a.name.localeCompare(b.name);
}

/** Entries in effect: not disabled, and no disabled entry above them. */
export function activeEntries(entries: StoredEntry[]): StoredEntry[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const active = (entry: StoredEntry, depth = 0): boolean => {
    if (entry.isDisabled) return false;
    if (entry.parentId === ROOT_ENTRY_ID || depth > 32) return true;
    const parent = byId.get(entry.parentId);
    return parent ? active(parent, depth + 1) : true;
  };
  return entries.filter((e) => active(e)).sort(compareEntries);
}

/** The effective entries of a scope: nearest per id, disabled ignored, in sibling order. */
export function effectiveEntries(configurations: StoredConfiguration[], scopePath: string): StoredEntry[] {
  return activeEntries(mergeEntries(configurationChain(configurations, scopePath)));
}

/** The parent id of a nested id ('a:b:c' -> 'a:b'); top-level entries hang below the root. */
export function parentIdOf(id: string): string {
  const at = id.lastIndexOf(':');
  return at < 0 ? ROOT_ENTRY_ID : id.slice(0, at);
}

/** A readable configuration id from a scope path: '/' -> 'root', '/org/acme/' -> 'orgAcme'. */
export function configurationIdOf(scopePath: string): string {
  const words = scopePath
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((w, i) =>
      i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1),
    );
  const id = words.join('');
  if (!id) return 'root';
  return /^[a-z]/.test(id) ? id : `c${id}`;
}
