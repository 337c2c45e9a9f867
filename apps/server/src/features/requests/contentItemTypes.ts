import type { RequestContent, WizardItemType } from '@dossier/core';
import { toWizardItemType } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { getEffectiveEntries } from '../configuration/index.js';

/**
 * The item types of a request's content as its scope configures them now: their smart forms (option
 * ranges resolved), submitter-supplied fields and field sets, which give the stored answers their
 * question texts and option names. API-only item types are included; they may be on a request.
 */
export async function loadContentItemTypes(
  db: DbOrTrx,
  scope: string,
  content: Pick<RequestContent, 'itemTypes'>,
): Promise<WizardItemType[]> {
  const ids = new Set((content.itemTypes ?? []).map((i) => i.id));
  if (ids.size === 0) return [];
  const [entries, options] = await Promise.all([
    getEffectiveEntries(db, scope, 'requestItemTypeEntry'),
    getEffectiveEntries(db, scope, 'smartFormOptionEntry'),
  ]);
  return entries.filter((e) => ids.has(e.id)).map((e) => toWizardItemType(e, options));
}
