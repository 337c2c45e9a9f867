import type { EntryType } from '@dossier/core';
import type { Db } from '../../db/database.js';
import { conflict, notFound } from '../../http/errors.js';
import * as repo from './repository.js';

// What saving an entry (service.ts) and saving the root entry (configurations.ts) share.

export interface SaveEntryInput {
  name: string;
  order: number;
  isDefault: boolean;
  isDisabled: boolean;
  type?: EntryType | undefined;
  data: unknown;
  /** The version the edit started from; null for a new entry. */
  version: number | null;
  /** The edit started from an inherited entry: saving creates an override here. */
  isInherited?: boolean | undefined;
}

export async function configurationOrNotFound(db: Db, id: string): Promise<repo.ConfigurationRow> {
  const c = await repo.findConfiguration(db, id);
  if (!c) throw notFound(`There is no configuration ${id}.`);
  return c;
}

export function rethrowUniqueAsConflict(error: unknown): never {
  if ((error as { code?: string }).code === '23505')
    throw conflict('This entry was created by someone else meanwhile. Reload the page.');
  throw error;
}
