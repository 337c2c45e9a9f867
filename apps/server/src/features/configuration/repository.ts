import type { EntryType, StoredConfiguration, StoredEntry } from '@dossier/core';
import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import { likeStartsWith } from '../../db/search.js';

// All SQL of the configuration. Entries are small documents (jsonb); a whole configuration is read
// at once, and the effective-configuration cache keeps all of them in memory.

type EntryRow = {
  configuration_id: string;
  id: string;
  parent_id: string;
  type: string;
  name: string;
  order: number;
  is_default: boolean;
  is_disabled: boolean;
  data: unknown;
  version: number;
};

function toEntry(row: EntryRow, scopePath: string): StoredEntry {
  return {
    configurationId: row.configuration_id,
    scopePath,
    id: row.id,
    parentId: row.parent_id,
    type: row.type as EntryType,
    name: row.name,
    order: row.order,
    isDefault: row.is_default,
    isDisabled: row.is_disabled,
    data: row.data,
    version: row.version,
  };
}

export interface ConfigurationRow {
  id: string;
  scopePath: string;
  name: string;
  order: number;
  isDefault: boolean;
  isDisabled: boolean;
  version: number;
}

const configurationColumns = [
  'id',
  'scope_path as scopePath',
  'name',
  'order',
  'is_default as isDefault',
  'is_disabled as isDisabled',
  'version',
] as const;

export async function listConfigurations(db: DbOrTrx): Promise<ConfigurationRow[]> {
  return db.selectFrom('configurations').select(configurationColumns).orderBy('scope_path').execute();
}

export async function findConfiguration(db: DbOrTrx, id: string): Promise<ConfigurationRow | undefined> {
  return db.selectFrom('configurations').select(configurationColumns).where('id', '=', id).executeTakeFirst();
}

export async function findConfigurationByScope(
  db: DbOrTrx,
  scopePath: string,
): Promise<ConfigurationRow | undefined> {
  return db
    .selectFrom('configurations')
    .select(configurationColumns)
    .where('scope_path', '=', scopePath)
    .executeTakeFirst();
}

export async function configurationIdExists(db: DbOrTrx, id: string): Promise<boolean> {
  return !!(await db.selectFrom('configurations').select('id').where('id', '=', id).executeTakeFirst());
}

/** Configurations with their entries; only those of the given scope paths when given. */
export async function loadConfigurations(db: DbOrTrx, scopePaths?: string[]): Promise<StoredConfiguration[]> {
  if (scopePaths && scopePaths.length === 0) return [];
  let q = db.selectFrom('configurations').select(['id', 'scope_path', 'name', 'order', 'is_disabled']);
  if (scopePaths) q = q.where('scope_path', 'in', scopePaths);
  const configurations = await q.execute();
  if (configurations.length === 0) return [];
  const entries = await db
    .selectFrom('configuration_entries')
    .select([
      'configuration_id',
      'id',
      'parent_id',
      'type',
      'name',
      'order',
      'is_default',
      'is_disabled',
      'data',
      'version',
    ])
    .where(
      'configuration_id',
      'in',
      configurations.map((c) => c.id),
    )
    .execute();
  const scopeOf = new Map(configurations.map((c) => [c.id, c.scope_path]));
  const byConfiguration = new Map<string, StoredEntry[]>();
  for (const row of entries) {
    const list = byConfiguration.get(row.configuration_id) ?? [];
    list.push(toEntry(row, scopeOf.get(row.configuration_id) ?? '/'));
    byConfiguration.set(row.configuration_id, list);
  }
  return configurations.map((c) => ({
    id: c.id,
    scopePath: c.scope_path,
    name: c.name,
    order: c.order,
    isDisabled: c.is_disabled,
    entries: byConfiguration.get(c.id) ?? [],
  }));
}

export async function insertConfiguration(
  db: DbOrTrx,
  c: {
    id: string;
    scopePath: string;
    name: string;
    order: number;
    isDefault: boolean;
    isDisabled: boolean;
    by: string | null;
  },
): Promise<void> {
  await db
    .insertInto('configurations')
    .values({
      id: c.id,
      scope_path: c.scopePath,
      name: c.name,
      order: c.order,
      is_default: c.isDefault,
      is_disabled: c.isDisabled,
      updated_by: c.by,
    })
    .execute();
}

/** Updates the root fields when the version matches; answers whether it did. */
export async function updateConfiguration(
  db: DbOrTrx,
  c: {
    id: string;
    name: string;
    order: number;
    isDefault: boolean;
    isDisabled: boolean;
    version: number;
    by: string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('configurations')
    .set({
      name: c.name,
      order: c.order,
      is_default: c.isDefault,
      is_disabled: c.isDisabled,
      version: sql`version + 1`,
      updated_at: new Date(),
      updated_by: c.by,
    })
    .where('id', '=', c.id)
    .where('version', '=', c.version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findEntry(db: DbOrTrx, configurationId: string, id: string) {
  return db
    .selectFrom('configuration_entries')
    .selectAll()
    .where('configuration_id', '=', configurationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export interface EntryWrite {
  configurationId: string;
  id: string;
  parentId: string;
  type: string;
  name: string;
  order: number;
  isDefault: boolean;
  isDisabled: boolean;
  data: unknown;
  by: string | null;
}

export async function insertEntry(db: DbOrTrx, e: EntryWrite): Promise<void> {
  await db
    .insertInto('configuration_entries')
    .values({
      configuration_id: e.configurationId,
      id: e.id,
      parent_id: e.parentId,
      type: e.type,
      name: e.name,
      order: e.order,
      is_default: e.isDefault,
      is_disabled: e.isDisabled,
      data: JSON.stringify(e.data),
      updated_by: e.by,
    })
    .execute();
}

/** Updates an entry when the version matches; answers whether it did. */
export async function updateEntry(db: DbOrTrx, e: EntryWrite & { version: number }): Promise<boolean> {
  const result = await db
    .updateTable('configuration_entries')
    .set({
      name: e.name,
      order: e.order,
      is_default: e.isDefault,
      is_disabled: e.isDisabled,
      data: JSON.stringify(e.data),
      version: sql`version + 1`,
      updated_at: new Date(),
      updated_by: e.by,
    })
    .where('configuration_id', '=', e.configurationId)
    .where('id', '=', e.id)
    .where('version', '=', e.version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes a configuration; its entries and their secrets go with it (foreign keys cascade). */
export async function deleteConfiguration(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('configurations').where('id', '=', id).execute();
}

/** Removes one entry of a configuration (an override being reverted, or a deleted entry). */
export async function deleteEntry(db: DbOrTrx, configurationId: string, id: string): Promise<void> {
  await db
    .deleteFrom('configuration_entries')
    .where('configuration_id', '=', configurationId)
    .where('id', '=', id)
    .execute();
}

export async function saveSecret(db: DbOrTrx, configurationId: string, entryId: string, privateKey: string) {
  await db
    .insertInto('configuration_secrets')
    .values({ configuration_id: configurationId, entry_id: entryId, private_key: privateKey })
    .onConflict((oc) => oc.columns(['configuration_id', 'entry_id']).doUpdateSet({ private_key: privateKey }))
    .execute();
}

export async function findSecret(
  db: DbOrTrx,
  configurationId: string,
  entryId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('configuration_secrets')
    .select('private_key')
    .where('configuration_id', '=', configurationId)
    .where('entry_id', '=', entryId)
    .executeTakeFirst();
  return row?.private_key;
}

export const CHANGE_CHANNEL = 'dossier_configuration';

/** Tells every instance (after the commit) that the configuration changed. */
export async function notifyChange(db: DbOrTrx): Promise<void> {
  await sql`select pg_notify(${CHANGE_CHANNEL}, '')`.execute(db);
}

/** Open tasks with a due date within a scope (and below), for recomputing due dates. */
export async function listOpenDatedTasks(db: DbOrTrx, scopePath: string) {
  return db
    .selectFrom('tasks')
    .select(['id', 'type', 'scope', 'triggered_at', 'due_at'])
    .where('completed_at', 'is', null)
    .where('due_at', 'is not', null)
    .where('due_at', '<', new Date('9999-01-01T00:00:00Z'))
    .where('due_fixed', '=', false)
    .where('scope', 'like', likeStartsWith(scopePath))
    .execute();
}

/** New due dates for many tasks in one statement. */
export async function setTaskDueDates(db: DbOrTrx, moves: { id: string; dueAt: Date }[]): Promise<void> {
  if (moves.length === 0) return;
  await sql`update tasks set due_at = m.due_at
    from unnest(${moves.map((m) => m.id)}::bigint[], ${moves.map((m) => m.dueAt.toISOString())}::timestamptz[])
      as m(id, due_at)
    where tasks.id = m.id`.execute(db);
}
