import {
  configurationIdOf,
  invalidFieldsMessage,
  isIdentifier,
  isValidScopePath,
  type newConfigurationRoute,
  normalizeScopePath,
  ROOT_ENTRY_ID,
  type RouteAnswer,
} from '@dossier/core';
import type { Db } from '../../db/database.js';
import { badRequest, conflict } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { invalidateConfigurationCache } from './cache.js';
import { getScopeEntry } from './effective.js';
import { assertCanEdit } from './policy.js';
import * as repo from './repository.js';
import { configurationOrNotFound, rethrowUniqueAsConflict, type SaveEntryInput } from './saving.js';
import { entryView } from './views.js';

// Configurations themselves: adding one by scope path, and saving its root entry (id c).

export const SCOPE_PATH_RULE = 'Enter a scope path such as /entityType/<id or name>/.';

/** GET /admin/configuration/new: checks the scope path and answers the id the new one will get. */
export async function newConfiguration(
  db: Db,
  actor: Actor,
  scopePathInput: string,
): Promise<RouteAnswer<typeof newConfigurationRoute>> {
  const scopePath = normalizeScopePath(scopePathInput ?? '');
  if (!scopePathInput?.trim()) throw badRequest('The scope path is required.', { scopePath: 'Required.' });
  if (!isValidScopePath(scopePath)) throw badRequest(SCOPE_PATH_RULE, { scopePath: SCOPE_PATH_RULE });
  assertCanEdit(actor, scopePath);
  if (await repo.findConfigurationByScope(db, scopePath)) {
    throw badRequest(`There is already a configuration for ${scopePath}.`, {
      scopePath: 'A configuration for this scope path exists.',
    });
  }
  let id = configurationIdOf(scopePath);
  for (let n = 2; await repo.configurationIdExists(db, id); n++) id = `${configurationIdOf(scopePath)}${n}`;
  // Named after the scope entry of that path when there is one.
  const scope = await getScopeEntry(db, scopePath);
  return { id, name: scope?.name ?? scopePath, scopePath };
}

export async function saveRoot(
  db: Db,
  actor: Actor,
  configurationId: string,
  existing: repo.ConfigurationRow | undefined,
  input: SaveEntryInput & { scopePath?: string | undefined },
) {
  const fields: Record<string, string> = {};
  if (!input.name?.trim()) fields.name = 'Required.';
  if (!Number.isInteger(input.order)) fields.order = 'Enter a whole number.';
  if (existing) {
    assertCanEdit(actor, existing.scopePath);
    if (input.version !== existing.version)
      throw conflict(
        'This configuration was changed by someone else meanwhile. Reload it to see the changes.',
      );
    if (Object.keys(fields).length > 0) throw badRequest(invalidFieldsMessage(fields), fields);
    const row = {
      id: configurationId,
      name: input.name.trim(),
      order: input.order,
      isDefault: input.isDefault,
      isDisabled: input.isDisabled,
      version: existing.version,
      by: actor.id,
    };
    await db.transaction().execute(async (trx) => {
      if (!(await repo.updateConfiguration(trx, row)))
        throw conflict('This configuration was changed by someone else meanwhile.');
      await repo.notifyChange(trx);
    });
  } else {
    const rawScope = (input.data as { scopePath?: string } | undefined)?.scopePath ?? input.scopePath ?? '';
    const scopePath = normalizeScopePath(rawScope);
    if (!rawScope.trim() || !isValidScopePath(scopePath)) fields['data.scopePath'] = SCOPE_PATH_RULE;
    if (!isIdentifier(configurationId)) fields.id = 'Start with a lowercase letter, then letters and digits.';
    if (Object.keys(fields).length > 0) throw badRequest(invalidFieldsMessage(fields), fields);
    assertCanEdit(actor, scopePath);
    if (await repo.findConfigurationByScope(db, scopePath))
      throw conflict(`There is already a configuration for ${scopePath}.`);
    await db
      .transaction()
      .execute(async (trx) => {
        await repo.insertConfiguration(trx, {
          id: configurationId,
          scopePath,
          name: input.name.trim(),
          order: input.order,
          isDefault: input.isDefault,
          isDisabled: input.isDisabled,
          by: actor.id,
        });
        await repo.notifyChange(trx);
      })
      .catch(rethrowUniqueAsConflict);
  }
  invalidateConfigurationCache(db);
  return entryView(db, actor, await configurationOrNotFound(db, configurationId), ROOT_ENTRY_ID);
}
