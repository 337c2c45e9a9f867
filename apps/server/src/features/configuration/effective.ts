import {
  activeEntries,
  configurationChain,
  DEFAULT_PASSWORD_POLICY,
  type EntryDataOf,
  type EntryType,
  effectiveEntries,
  mergeEntries,
  type PasswordPolicy,
  parseEntryData,
  type RequestSettingsEntryData,
  type RetentionEntryData,
  type ScopeEntryData,
  type StoredEntry,
  scopeAncestry,
  type TaskTypeSettingsEntryData,
  type TemplateUsage,
  type WorkflowTaskType,
} from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { configurationsFor } from './cache.js';

/*
 * The effective configuration: what every other feature reads. Configurations are matched by scope
 * path ancestry, entries by id; the effective entry for a scope is the nearest one walking from
 * the scope up to '/'. Disabled entries (and everything below a disabled entry) are ignored.
 * Results are in sibling order: the isDefault entry first, then by order, then by name.
 *
 * Reads are served from a per-instance cache that every instance drops when any of them commits a
 * change (see cache.ts). Pass a transaction to read uncommitted state without the cache.
 */

export interface EffectiveEntry<T extends EntryType = EntryType> {
  /** The configuration that holds the entry, and its scope path. */
  configurationId: string;
  configurationScopePath: string;
  id: string;
  parentId: string;
  type: T;
  name: string;
  order: number;
  isDefault: boolean;
  data: EntryDataOf[T];
}

function toEffective<T extends EntryType>(entry: StoredEntry, type: T): EffectiveEntry<T> | undefined {
  const data = parseEntryData(type, entry.data);
  if (!data) return undefined;
  return {
    configurationId: entry.configurationId,
    configurationScopePath: entry.scopePath,
    id: entry.id,
    parentId: entry.parentId,
    type,
    name: entry.name,
    order: entry.order,
    isDefault: entry.isDefault,
    data,
  };
}

/** The effective entries of a type for a scope, default first. */
export async function getEffectiveEntries<T extends EntryType>(
  db: DbOrTrx,
  scopePath: string,
  type: T,
): Promise<EffectiveEntry<T>[]> {
  const entries = effectiveEntries(await configurationsFor(db, scopePath), scopePath);
  return entries
    .filter((e) => e.type === type)
    .map((e) => toEffective(e, type))
    .filter((e): e is EffectiveEntry<T> => e !== undefined);
}

/** The default (else the first) effective entry of a type that matches, if any. */
export async function getEffectiveEntry<T extends EntryType>(
  db: DbOrTrx,
  scopePath: string,
  type: T,
  where: (entry: EffectiveEntry<T>) => boolean = () => true,
): Promise<EffectiveEntry<T> | undefined> {
  return (await getEffectiveEntries(db, scopePath, type)).find(where);
}

/** The effective template of a usage for a scope. */
export async function getEffectiveTemplate(
  db: DbOrTrx,
  scopePath: string,
  usage: TemplateUsage,
): Promise<EffectiveEntry<'templateEntry'> | undefined> {
  return getEffectiveEntry(db, scopePath, 'templateEntry', (e) => e.data.usage === usage);
}

/** The effective request settings of a scope (the default entry, else the first). */
export async function getRequestSettings(
  db: DbOrTrx,
  scopePath: string,
): Promise<RequestSettingsEntryData | undefined> {
  return (await getEffectiveEntry(db, scopePath, 'requestSettingsEntry'))?.data;
}

/** The effective retention of a scope (the default entry, else the first); undefined keeps everything. */
export async function getRetention(db: DbOrTrx, scopePath: string): Promise<RetentionEntryData | undefined> {
  return (await getEffectiveEntry(db, scopePath, 'retentionEntry'))?.data;
}

/** The effective settings of a workflow task type for a scope. */
export async function getTaskTypeSettings(
  db: DbOrTrx,
  scopePath: string,
  taskType: WorkflowTaskType,
): Promise<TaskTypeSettingsEntryData | undefined> {
  return (
    await getEffectiveEntry(db, scopePath, 'taskTypeSettingsEntry', (e) => e.data.taskType === taskType)
  )?.data;
}

/** Every effective public holiday of a scope (all holiday entries together), sorted. */
export async function getPublicHolidays(db: DbOrTrx, scopePath: string): Promise<string[]> {
  const entries = await getEffectiveEntries(db, scopePath, 'publicHolidaysEntry');
  return [...new Set(entries.flatMap((e) => e.data.dates))].sort();
}

export interface EffectiveScope extends ScopeEntryData {
  /** The id and name of the scope entry that defines it. */
  entryId: string;
  name: string;
}

function toScope(entry: EffectiveEntry<'scopeEntry'>): EffectiveScope {
  return { ...entry.data, entryId: entry.id, name: entry.name };
}

/**
 * The scope entry of exactly this scope path: among the scope entries effective for that path
 * (from its own configuration up to '/'), the one whose scopePath is the path.
 */
export async function getScopeEntry(db: DbOrTrx, scopePath: string): Promise<EffectiveScope | undefined> {
  const entry = await getEffectiveEntry(db, scopePath, 'scopeEntry', (e) => e.data.scopePath === scopePath);
  return entry ? toScope(entry) : undefined;
}

/** The scope entry of the scope or of its nearest ancestor that has one (a user's scope, say). */
export async function getNearestScopeEntry(
  db: DbOrTrx,
  scopePath: string,
): Promise<EffectiveScope | undefined> {
  const entries = await getEffectiveEntries(db, scopePath, 'scopeEntry');
  for (const path of scopeAncestry(scopePath)) {
    const entry = entries.find((e) => e.data.scopePath === path);
    if (entry) return toScope(entry);
  }
  return undefined;
}

/** The second-factor requirements of a scope and of every scope above it (issue 35). */
export async function getSecondFactorRequirements(
  db: DbOrTrx,
  scopePath: string,
): Promise<{ scopePath: string; secondFactorRoles: string[] }[]> {
  const ancestry = new Set(scopeAncestry(scopePath));
  const entries = await getEffectiveEntries(db, scopePath, 'scopeEntry');
  return entries
    .filter((e) => ancestry.has(e.data.scopePath))
    .map((e) => ({ scopePath: e.data.scopePath, secondFactorRoles: [...(e.data.secondFactorRoles ?? [])] }));
}

/** The addresses the root scope entry trusts: no per-address sign-in limit for them (issue 35). */
export async function getTrustedAddresses(db: DbOrTrx): Promise<string[]> {
  return [...((await getScopeEntry(db, '/'))?.trustedAddresses ?? [])];
}

/** Every effective scope entry, one per scope path, sorted by scope path. */
export async function listScopeEntries(db: DbOrTrx): Promise<EffectiveScope[]> {
  const configurations = await configurationsFor(db);
  const paths = new Set<string>();
  for (const c of configurations) {
    if (c.isDisabled) continue;
    for (const e of c.entries) {
      const data = e.type === 'scopeEntry' ? parseEntryData('scopeEntry', e.data) : undefined;
      if (data?.scopePath) paths.add(data.scopePath);
    }
  }
  const scopes: EffectiveScope[] = [];
  for (const path of [...paths].sort()) {
    const active = activeEntries(mergeEntries(configurationChain(configurations, path)));
    const entry = active.find(
      (e) => e.type === 'scopeEntry' && parseEntryData('scopeEntry', e.data)?.scopePath === path,
    );
    const effective = entry ? toEffective(entry, 'scopeEntry') : undefined;
    if (effective) scopes.push(toScope(effective));
  }
  return scopes;
}

/** The password policy of a scope: its nearest scope entry's, else the default. */
export async function getPasswordPolicy(db: DbOrTrx, scopePath: string): Promise<PasswordPolicy> {
  return (await getNearestScopeEntry(db, scopePath))?.passwordPolicy ?? DEFAULT_PASSWORD_POLICY;
}

export { enableConfigurationCache, invalidateConfigurationCache } from './cache.js';
