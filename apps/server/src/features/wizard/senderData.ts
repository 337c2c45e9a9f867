import {
  isWithinScope,
  ROOT_ENTRY_ID,
  type SenderData,
  toWizardItemType,
  type WizardItemType,
  type WizardOrganization,
} from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { forbidden } from '../../http/errors.js';
import { type Actor, scopesWithPermission } from '../auth/index.js';
import { getEffectiveEntries, getRequestSettings, listScopeEntries } from '../configuration/index.js';
import { RECIPIENT_TAGS } from '../recipients/index.js';
import * as repo from './repository.js';

// What the wizard knows about a sender organisation: who may submit for it, its applicant defaults
// (request settings), the recipient tags, and its request item types grouped into categories.

/** Item types directly below the configuration root share one category of this name. */
export const DEFAULT_CATEGORY = 'Request items';

/**
 * The organisations the actor may submit requests for: scopes with usage submitRequest that lie
 * within a scope where the actor holds request:submit.
 */
export async function listSenderOrganizations(db: DbOrTrx, actor: Actor): Promise<WizardOrganization[]> {
  const grants = scopesWithPermission(actor, 'request:submit');
  if (grants.length === 0) return [];
  const scopes = await listScopeEntries(db);
  return scopes
    .filter((s) => s.usages.includes('submitRequest'))
    .filter((s) => grants.some((grant) => isWithinScope(s.scopePath, grant)))
    .map((s) => ({ scopePath: s.scopePath, name: s.name }));
}

/** The organisation, when the actor may submit for it; 403 otherwise. */
export async function requireSenderOrganization(
  db: DbOrTrx,
  actor: Actor,
  organization: string,
): Promise<WizardOrganization> {
  const found = (await listSenderOrganizations(db, actor)).find((o) => o.scopePath === organization);
  if (!found) throw forbidden('You may not submit requests for this organisation.');
  return found;
}

/**
 * The item types of a scope (API-only ones are not offered in the wizard) grouped by the entry
 * they are filed under: an item type that has item types below it is a folder, and names their
 * category; those directly below the root form one category.
 */
export async function loadItemCategories(
  db: DbOrTrx,
  scopePath: string,
  preSelected: string[],
): Promise<SenderData['requestItemCategories']> {
  const [entries, options] = await Promise.all([
    getEffectiveEntries(db, scopePath, 'requestItemTypeEntry'),
    getEffectiveEntries(db, scopePath, 'smartFormOptionEntry'),
  ]);
  const folders = new Set(entries.map((e) => e.parentId));
  const nameOf = new Map(entries.map((e) => [e.id, e.name]));
  const categories = new Map<string, WizardItemType[]>();
  for (const entry of entries) {
    if (entry.data.isApiOnly || folders.has(entry.id)) continue;
    const category =
      entry.parentId === ROOT_ENTRY_ID ? DEFAULT_CATEGORY : (nameOf.get(entry.parentId) ?? DEFAULT_CATEGORY);
    const list = categories.get(category) ?? [];
    list.push(toWizardItemType(entry, options, preSelected.includes(entry.id)));
    categories.set(category, list);
  }
  return [...categories].map(([name, itemTypes]) => ({ name, itemTypes }));
}

/** GET /requests/new/sender/{organization}/data, for an organisation the actor may submit for. */
export async function getSenderData(db: DbOrTrx, actor: Actor, organization: string): Promise<SenderData> {
  await requireSenderOrganization(db, actor, organization);
  const settings = await getRequestSettings(db, organization);
  const [submitters, requestItemCategories] = await Promise.all([
    repo.listSubmitters(db, organization),
    loadItemCategories(db, organization, settings?.preSelectedRequestItemTypes ?? []),
  ]);
  return {
    organization,
    submitters,
    applicant: {
      reference1IsRequired: settings?.applicantReference1Required ?? false,
      reference1Type: settings?.applicantReference1DefaultType ?? null,
      preLoadedApplicantAuthority: settings?.preLoadedApplicantAuthority ?? null,
    },
    recipient: {
      tags: Object.values(RECIPIENT_TAGS).map((t) => ({ ...t, values: [...t.values] })),
      // A country, not the phone prefix: '+61' was offered here and refused on save.
      country: actor.country && /^[A-Z]{2}$/.test(actor.country) ? actor.country : 'AU',
    },
    requestItemCategories,
  };
}
