import { dependantsMessage, entryDependants, ROOT_ENTRY_ID } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Db } from '../../db/database.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Actor } from '../auth/index.js';
import { invalidateConfigurationCache } from './cache.js';
import { DUE_DATE_TYPES, scheduleDueDateRecompute } from './dueDates.js';
import { assertCanEdit } from './policy.js';
import * as repo from './repository.js';
import { loadChain } from './views.js';

// Deleting, beyond disabling: an entry of this configuration, or (its root entry, id c) the whole
// configuration. Refused while something depends on it; recorded in the audit trail.

export interface Deleted {
  /** Where to go next: the parent entry's page, or the configuration list. */
  next: string;
}

/** POST …/edit/{c}/{id}/delete */
export async function deleteEntryOrConfiguration(
  db: Db,
  actor: Actor,
  configurationId: string,
  id: string,
  jobs?: JobQueue,
): Promise<Deleted> {
  const c = await repo.findConfiguration(db, configurationId);
  if (!c) throw notFound(`There is no configuration ${configurationId}.`);
  assertCanEdit(actor, c.scopePath);
  if (id === ROOT_ENTRY_ID) return deleteConfiguration(db, actor, c);
  const chain = await loadChain(db, c);
  const own = chain.find((x) => x.id === c.id)?.entries.find((e) => e.id === id);
  const inherited = chain.some((x) => x.id !== c.id && x.entries.some((e) => e.id === id));
  if (!own) {
    if (inherited)
      throw badRequest(
        'This entry is inherited: delete it in the configuration it comes from, or disable it here.',
      );
    throw notFound(`There is no entry ${id}.`);
  }
  if (inherited)
    throw badRequest('This entry overrides an inherited one: Revert to inherited removes the override.');
  // Any configuration may depend on it: those below inherit it, and children are kept by id.
  const everything = (await repo.loadConfigurations(db)).flatMap((x) => x.entries);
  const dependants = entryDependants(everything, id, own.type);
  if (dependants.length > 0) throw conflict(dependantsMessage(dependants));
  await db.transaction().execute(async (trx) => {
    await repo.deleteEntry(trx, c.id, id);
    await recordEvent(trx, {
      type: 'configurationEntryDeleted',
      aggregateType: 'configuration',
      aggregateId: c.id,
      actor: actor.id,
      payload: { scopePath: c.scopePath, id, name: own.name, type: own.type, data: own.data },
    });
    if (DUE_DATE_TYPES.has(own.type)) await scheduleDueDateRecompute(trx, jobs, c.scopePath);
    await repo.notifyChange(trx);
  });
  invalidateConfigurationCache(db);
  const parent = own.parentId || ROOT_ENTRY_ID;
  return {
    next: `/admin/configuration/edit/${encodeURIComponent(c.id)}/${encodeURIComponent(parent)}`,
  };
}

async function deleteConfiguration(db: Db, actor: Actor, c: repo.ConfigurationRow): Promise<Deleted> {
  if (c.scopePath === '/')
    throw badRequest('The root configuration cannot be deleted; disable its entries instead.');
  const held = (await repo.loadConfigurations(db, [c.scopePath]))
    .flatMap((x) => x.entries)
    .filter((e) => e.id !== ROOT_ENTRY_ID);
  if (held.length > 0)
    throw conflict(
      `This configuration still holds ${held.length === 1 ? '1 entry' : `${held.length} entries`} (${held
        .slice(0, 5)
        .map((e) => `"${e.name}"`)
        .join(', ')}${held.length > 5 ? ', …' : ''}). Delete them first, or disable the configuration.`,
    );
  await db.transaction().execute(async (trx) => {
    await repo.deleteConfiguration(trx, c.id);
    await recordEvent(trx, {
      type: 'configurationDeleted',
      aggregateType: 'configuration',
      aggregateId: c.id,
      actor: actor.id,
      payload: { scopePath: c.scopePath, name: c.name },
    });
    await repo.notifyChange(trx);
  });
  invalidateConfigurationCache(db);
  return { next: '/admin/configuration' };
}
