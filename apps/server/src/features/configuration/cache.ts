import type { StoredConfiguration } from '@dossier/core';
import { scopeAncestry } from '@dossier/core';
import type { Db, DbOrTrx } from '../../db/database.js';
import type { LiveHub } from '../../live/hub.js';
import { CHANGE_CHANNEL, loadConfigurations } from './repository.js';

// The effective-configuration cache. Every instance keeps all configurations in memory (they are
// small and read on almost every request) and drops them when any instance commits a change: the
// change sends NOTIFY dossier_configuration in its transaction, each instance LISTENs through the
// live hub's connection, and a lost connection drops the cache on reconnect. The instance that made
// the change also drops it right after its commit, so it reads its own writes at once.
// A transaction (or a database the cache was not enabled for) always reads from the database.

interface CacheState {
  snapshot: Promise<StoredConfiguration[]> | undefined;
  loads: number;
}

const caches = new WeakMap<object, CacheState>();

/** Turns the cache on for a database handle; call once per app (see app.ts). */
export async function enableConfigurationCache(db: Db, live: LiveHub): Promise<void> {
  if (caches.has(db)) return;
  caches.set(db, { snapshot: undefined, loads: 0 });
  await live.subscribe(CHANGE_CHANNEL, () => invalidateConfigurationCache(db));
}

export function invalidateConfigurationCache(db: DbOrTrx): void {
  const state = caches.get(db);
  if (state) state.snapshot = undefined;
}

/** How many times the cache of this handle loaded from the database (for tests). */
export function configurationCacheLoads(db: DbOrTrx): number {
  return caches.get(db)?.loads ?? 0;
}

/** The configurations that apply to a scope (all of them when the scope is omitted). */
export async function configurationsFor(db: DbOrTrx, scopePath?: string): Promise<StoredConfiguration[]> {
  const state = caches.get(db);
  if (!state) return loadConfigurations(db, scopePath === undefined ? undefined : scopeAncestry(scopePath));
  if (!state.snapshot) {
    const loading = loadConfigurations(db);
    state.snapshot = loading;
    state.loads++;
    loading.catch(() => {
      if (state.snapshot === loading) state.snapshot = undefined;
    });
  }
  return state.snapshot;
}
