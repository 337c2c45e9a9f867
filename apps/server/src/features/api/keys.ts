import { type ApiScope, effectiveEntries, parseEntryData, type RsaPublicKey } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { configurationsFor } from '../configuration/index.js';

// The API keys of the configuration editor. A key is an apiKeyEntry; its id is the `kid` a client
// names in its tokens, and the scope path of the configuration that holds it is all the key may see.
// Entry ids are matched across configurations by inheritance, so the same id may be held by more
// than one configuration: each is a candidate, narrowest scope first, and the token's signature
// decides which one signed it.

export interface ApiKey {
  kid: string;
  name: string;
  configurationId: string;
  /** The scope path of the key's configuration: the key sees this scope and below. */
  scopePath: string;
  publicKey: RsaPublicKey;
  apiScopes: ApiScope[];
}

/** The API key entries with this id in effect in their own configuration (not disabled). */
export async function findApiKeys(db: DbOrTrx, kid: string): Promise<ApiKey[]> {
  const configurations = await configurationsFor(db);
  const keys: ApiKey[] = [];
  for (const configuration of configurations) {
    if (configuration.isDisabled) continue;
    if (!configuration.entries.some((e) => e.id === kid && e.type === 'apiKeyEntry')) continue;
    // Effective in the configuration's own scope: a disabled entry (or one below a disabled folder)
    // does not count, and an entry overridden nearer to the scope is the override's business.
    const entry = effectiveEntries(configurations, configuration.scopePath).find(
      (e) => e.id === kid && e.type === 'apiKeyEntry' && e.configurationId === configuration.id,
    );
    const data = entry ? parseEntryData('apiKeyEntry', entry.data) : undefined;
    if (!entry || !data?.publicKey) continue;
    keys.push({
      kid,
      name: entry.name,
      configurationId: configuration.id,
      scopePath: configuration.scopePath,
      publicKey: data.publicKey,
      apiScopes: data.apiScopes,
    });
  }
  return keys.sort((a, b) => b.scopePath.length - a.scopePath.length);
}
