import type { FileRef } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { registerFileOwner } from '../../files/access.js';
import { findFile } from '../../files/repository.js';
import { claimFile, type FilesContext } from '../../files/service.js';
import type { Actor } from '../auth/index.js';
import { canViewScope } from './policy.js';
import * as repo from './repository.js';

// Files named by entries (logos, the PDF form of an item type, a pre-loaded authority) belong to
// the configuration that first saved them: whoever may view that configuration may read them.
// Logos are uploaded public (they appear on forms sent outside).

export const FILE_OWNER_TYPE = 'configuration';

registerFileOwner(FILE_OWNER_TYPE, async (db, actor, ownerId) => {
  const configuration = await repo.findConfiguration(db, ownerId);
  return !!configuration && canViewScope(actor, configuration.scopePath);
});

const FILE_FIELDS = [
  'form',
  'secondarySmartFormLogo',
  'smartFormLogo',
  'remittanceAdviceLogo',
  'preLoadedApplicantAuthority',
];

/**
 * Attaches the files of an entry's data to the configuration. A file already owned by a
 * configuration (an override keeps the inherited entry's files) is fine; an upload of the actor is
 * attached; anything else is a field error.
 */
export async function attachEntryFiles(
  files: FilesContext,
  db: DbOrTrx,
  actor: Actor,
  configurationId: string,
  data: Record<string, unknown>,
  errors: Record<string, string>,
): Promise<void> {
  for (const field of FILE_FIELDS) {
    const ref = data[field] as FileRef | null | undefined;
    if (!ref?.key) continue;
    const file = await findFile(db, ref.key);
    if (file?.owner_type === FILE_OWNER_TYPE && file.uploaded_at) continue;
    const problem = await claimFile(files, db, actor, ref.key, {
      type: FILE_OWNER_TYPE,
      id: configurationId,
    });
    if (problem) errors[`data.${field}`] = problem;
    else data[field] = { key: ref.key, name: ref.name ?? file?.name };
  }
}
