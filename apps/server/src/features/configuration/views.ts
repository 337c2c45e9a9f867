import {
  CHILD_ENTRY_TYPES,
  type ChildSummary,
  compareEntries,
  configurationChain,
  ENTRY_TYPES_WITH_CHILDREN,
  type EntryType,
  type EntryView,
  mergeEntries,
  parseEntryData,
  ROOT_ENTRY_ID,
  type StoredConfiguration,
  type StoredEntry,
} from '@dossier/core';

export type { ChildSummary, EntryView };

import type { DbOrTrx } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import { type Actor, scopesWithPermission } from '../auth/index.js';
import { listScopeEntries } from './effective.js';
import { canEdit, canViewScope } from './policy.js';
import * as repo from './repository.js';

// The two views of the configuration screens, built from what is stored (never from the cache, so
// an editor always sees the latest versions).

export async function listView(db: DbOrTrx, actor: Actor) {
  const all = await repo.listConfigurations(db);
  const configurations = all.filter((c) => canViewScope(actor, c.scopePath));
  const inheritsOf = (scopePath: string, ownId?: string) =>
    configurationChain(all, scopePath)
      .filter((p) => p.id !== ownId)
      .map((p) => ({ id: p.id, name: p.name, scopePath: p.scopePath }));
  const rows = configurations.map((c) => ({
    id: c.id,
    name: c.name,
    scopePath: c.scopePath,
    order: c.order,
    isDisabled: c.isDisabled,
    isInherited: false,
    inherits: inheritsOf(c.scopePath, c.id),
  }));
  // Scopes that have no configuration of their own run on an inherited one: listed as such, so an
  // administrator sees what applies there and can add one.
  const own = new Set(all.map((c) => c.scopePath));
  for (const scope of await listScopeEntries(db)) {
    if (own.has(scope.scopePath) || !canViewScope(actor, scope.scopePath)) continue;
    rows.push({
      id: '',
      name: scope.name,
      scopePath: scope.scopePath,
      order: 0,
      isDisabled: false,
      isInherited: true,
      inherits: inheritsOf(scope.scopePath),
    });
  }
  return {
    $type: 'configurationList' as const,
    title: 'Configuration',
    canEdit: scopesWithPermission(actor, 'configuration:edit').length > 0,
    configurations: rows.sort(
      (a, b) =>
        Number(a.isInherited) - Number(b.isInherited) ||
        a.order - b.order ||
        a.scopePath.localeCompare(b.scopePath),
    ),
  };
}

/** The configuration with its chain of ancestors (nearest first, itself included). */
export async function loadChain(
  db: DbOrTrx,
  configuration: repo.ConfigurationRow,
): Promise<StoredConfiguration[]> {
  const loaded = await repo.loadConfigurations(db, undefined);
  const own = loaded.find((c) => c.id === configuration.id);
  const ancestors = configurationChain(loaded, configuration.scopePath).filter(
    (c) => c.id !== configuration.id,
  );
  return own ? [own, ...ancestors] : ancestors;
}

function rootEntry(c: repo.ConfigurationRow): StoredEntry {
  return {
    configurationId: c.id,
    scopePath: c.scopePath,
    id: ROOT_ENTRY_ID,
    parentId: '',
    type: 'configurationRoot',
    name: c.name,
    order: c.order,
    isDefault: c.isDefault,
    isDisabled: c.isDisabled,
    data: { scopePath: c.scopePath },
    version: c.version,
  };
}

export interface NewEntryHint {
  name?: string | undefined;
  type?: EntryType | undefined;
  scopePath?: string | undefined;
}

export async function entryView(
  db: DbOrTrx,
  actor: Actor,
  configuration: repo.ConfigurationRow,
  id: string,
  hint: NewEntryHint = {},
): Promise<EntryView> {
  const chain = await loadChain(db, configuration);
  const merged = mergeEntries(chain);
  const byId = new Map(merged.map((e) => [e.id, e]));
  let stored = id === ROOT_ENTRY_ID ? rootEntry(configuration) : byId.get(id);
  let isNew = false;
  if (!stored) {
    if (!hint.name || !hint.type)
      throw notFound(`There is no entry ${id} in configuration ${configuration.id}.`);
    isNew = true;
    stored = {
      configurationId: configuration.id,
      scopePath: configuration.scopePath,
      id,
      parentId: id.includes(':') ? id.slice(0, id.lastIndexOf(':')) : ROOT_ENTRY_ID,
      type: hint.type,
      name: hint.name,
      order: 0,
      isDefault: false,
      isDisabled: false,
      data: {},
      version: 0,
    };
  }
  const isInherited = stored.configurationId !== configuration.id;
  const isOwn = !isNew && !isInherited && id !== ROOT_ENTRY_ID;
  const existsAbove = chain.some((c) => c.id !== configuration.id && c.entries.some((e) => e.id === id));
  const editable = canEdit(actor, configuration.scopePath);
  const path: { id: string; name: string }[] = [];
  for (let p = stored.parentId; p && p !== ROOT_ENTRY_ID; ) {
    const parent = byId.get(p);
    path.unshift({ id: p, name: parent?.name ?? p });
    p = parent?.parentId ?? '';
  }
  if (id !== ROOT_ENTRY_ID) path.unshift({ id: ROOT_ENTRY_ID, name: configuration.name });
  const children = merged
    .filter((e) => e.parentId === id)
    .sort(compareEntries)
    .map((e) => {
      const scopePath = e.type === 'scopeEntry' ? parseEntryData('scopeEntry', e.data)?.scopePath : undefined;
      return {
        id: e.id,
        name: e.name,
        type: e.type,
        order: e.order,
        isDefault: e.isDefault,
        isDisabled: e.isDisabled,
        isInherited: e.configurationId !== configuration.id,
        ...(scopePath === undefined ? {} : { scopePath }),
      };
    });
  const active = merged.filter((e) => !e.isDisabled);
  const optionLists = active.filter(
    (e) => e.type === 'smartFormOptionEntry' && active.some((c) => c.parentId === e.id),
  );
  return {
    $type: 'configurationEntry',
    title: `${stored.name} (${configuration.scopePath})`,
    configuration: { id: configuration.id, scopePath: configuration.scopePath, name: configuration.name },
    entry: {
      id,
      name: stored.name,
      type: stored.type,
      order: stored.order,
      isDefault: stored.isDefault,
      isDisabled: stored.isDisabled,
      data: parseEntryData(stored.type, stored.data) ?? stored.data,
      version: isNew ? null : stored.version,
      isInherited,
      ...(isInherited
        ? { inheritedFrom: { configurationId: stored.configurationId, scopePath: stored.scopePath } }
        : {}),
    },
    isNew,
    canEdit: editable,
    canRevertToInherited: editable && isOwn && existsAbove,
    path,
    children,
    childTypes:
      id === ROOT_ENTRY_ID
        ? CHILD_ENTRY_TYPES
        : ENTRY_TYPES_WITH_CHILDREN.includes(stored.type)
          ? [stored.type]
          : [],
    choices: {
      optionLists: optionLists.map((e) => ({ id: e.id, name: e.name })),
      requestItemTypes: active
        .filter((e) => e.type === 'requestItemTypeEntry')
        .sort(compareEntries)
        .map((e) => ({ id: e.id, name: e.name, parentId: e.parentId })),
      scopeTags: active
        .filter((e) => e.type === 'smartFormOptionEntry' && e.parentId === 'scopeTags')
        .map((tag) => ({
          id: tag.id.slice('scopeTags:'.length),
          name: tag.name,
          options: active
            .filter((o) => o.parentId === tag.id)
            .map((o) => ({ id: o.id.slice(tag.id.length + 1), name: o.name })),
        })),
    },
  };
}
