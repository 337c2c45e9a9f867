import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './20261122_0001_foundation.js';
import * as files from './20261122_0004_files.js';
import * as sso from './20261122_0006_sso.js';

// Migrations are listed here rather than read from the folder so the bundled server carries them.
// Never edit a migration that has landed; add a new one.
const migrations: Record<string, Migration> = {
  '20261122_0001_foundation': foundation,
  '20261122_0004_files': files,
  '20261122_0006_sso': sso,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
