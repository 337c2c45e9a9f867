import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import {
  CHILD_ENTRY_TYPES,
  decodeRsaPublicKey,
  ENTRY_TYPES_WITH_CHILDREN,
  type EntryType,
  entryScopesOutside,
  invalidFieldsMessage,
  isIdentifier,
  isValidScopePath,
  mergeEntries,
  nestedId,
  type newChildEntryRoute,
  normalizeScopePath,
  parentIdOf,
  ROOT_ENTRY_ID,
  type RouteAnswer,
  RsaKeyError,
  rsaPublicKeyToDerBase64,
  validateEntry,
} from '@dossier/core';
import type { Db, Trx } from '../../db/database.js';
import type { FilesContext } from '../../files/service.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { checkWebhookUrl } from '../../http/ssrf.js';
import type { JobQueue } from '../../jobs/queue.js';
import { type Actor, scopesWithPermission } from '../auth/index.js';
import { invalidateConfigurationCache } from './cache.js';
import { saveRoot } from './configurations.js';
import { DUE_DATE_TYPES, scheduleDueDateRecompute } from './dueDates.js';
import { attachEntryFiles } from './files.js';
import { assertCanEdit, assertCanRead } from './policy.js';
import * as repo from './repository.js';
import { configurationOrNotFound, rethrowUniqueAsConflict, type SaveEntryInput } from './saving.js';
import { type EntryView, entryView, loadChain, type NewEntryHint } from './views.js';

// The use cases of the configuration screens. Every change runs in a transaction that also sends
// the change notice, and drops this instance's cache right after the commit.

/** The edit view; a configuration not stored yet is shown new when the scope path is given. */
export async function getEntry(
  db: Db,
  actor: Actor,
  configurationId: string,
  id: string,
  hint: NewEntryHint,
): Promise<EntryView> {
  const stored = await repo.findConfiguration(db, configurationId);
  if (!stored) {
    if (id !== ROOT_ENTRY_ID || !hint.scopePath)
      throw notFound(`There is no configuration ${configurationId}.`);
    const scopePath = normalizeScopePath(hint.scopePath);
    if (!isValidScopePath(scopePath) || !isIdentifier(configurationId))
      throw notFound(`There is no configuration ${configurationId}.`);
    assertCanRead(actor, scopePath);
    const draft = {
      id: configurationId,
      scopePath,
      name: hint.name || scopePath,
      order: 0,
      isDefault: false,
      isDisabled: false,
      version: 0,
    };
    const view = await entryView(db, actor, draft, id, hint);
    return { ...view, isNew: true, canRevertToInherited: false, entry: { ...view.entry, version: null } };
  }
  assertCanRead(actor, stored.scopePath);
  return entryView(db, actor, stored, id, hint);
}

/** GET …/{id}/new: checks a child's id and name and answers its full id. */
export async function newChild(
  db: Db,
  actor: Actor,
  configurationId: string,
  parentId: string,
  input: { childId?: string | undefined; name?: string | undefined; type?: string | undefined },
): Promise<RouteAnswer<typeof newChildEntryRoute>> {
  const c = await configurationOrNotFound(db, configurationId);
  assertCanEdit(actor, c.scopePath);
  const fields: Record<string, string> = {};
  const childId = input.childId?.trim() ?? '';
  const name = input.name?.trim() ?? '';
  if (!name) fields.name = 'Required.';
  if (!childId) fields.childId = 'Required.';
  else if (!isIdentifier(childId)) fields.childId = 'Start with a lowercase letter, then letters and digits.';
  const merged = mergeEntries(await loadChain(db, c));
  const parent = parentId === ROOT_ENTRY_ID ? undefined : merged.find((e) => e.id === parentId);
  if (parentId !== ROOT_ENTRY_ID && !parent) throw notFound(`There is no entry ${parentId}.`);
  const type = (parent ? parent.type : input.type) as EntryType | undefined;
  if (parent && !ENTRY_TYPES_WITH_CHILDREN.includes(parent.type))
    fields.type = 'Entries of this type have no children.';
  else if (!type || !(CHILD_ENTRY_TYPES as readonly string[]).includes(type))
    fields.type = 'Choose the type of entry.';
  const id = nestedId(parent?.id, childId);
  if (childId && !fields.childId && merged.some((e) => e.id === id))
    fields.childId = 'An entry with this id exists.';
  // (A missing type has its field message already.)
  if (Object.keys(fields).length > 0 || !type) throw badRequest(invalidFieldsMessage(fields), fields);
  return { id, name, type };
}

function checkApiKey(
  data: { publicKey: { modulus: string; exponent: string } | null },
  errors: Record<string, string>,
) {
  if (!data.publicKey) return;
  try {
    const der = rsaPublicKeyToDerBase64(data.publicKey);
    decodeRsaPublicKey(der);
    createPublicKey({ key: Buffer.from(der, 'base64'), format: 'der', type: 'pkcs1' });
  } catch (error) {
    errors['data.publicKey'] =
      error instanceof RsaKeyError ? error.message : 'The key is not a valid PKCS#1 RSA public key.';
  }
}

/** POST …/edit/{c}/{id}: saves the entry (an override when it was inherited); 409 when stale. */
export async function saveEntry(
  db: Db,
  actor: Actor,
  configurationId: string,
  id: string,
  input: SaveEntryInput & { scopePath?: string | undefined },
  settings: { webhooksAllowLoopback: boolean; files: FilesContext; jobs?: JobQueue | undefined },
) {
  const existing = await repo.findConfiguration(db, configurationId);
  if (id === ROOT_ENTRY_ID) return saveRoot(db, actor, configurationId, existing, input);
  if (!existing) throw notFound(`There is no configuration ${configurationId}.`);
  assertCanEdit(actor, existing.scopePath);
  await db
    .transaction()
    .execute(async (trx) => {
      const own = await repo.findEntry(trx, configurationId, id);
      const merged = mergeEntries(await loadChain(trx, existing));
      const effective = merged.find((e) => e.id === id);
      const parentId = parentIdOf(id);
      const parent = merged.find((e) => e.id === parentId);
      // A new child without a type takes its parent's (option lists, categories of item types).
      const type = (own?.type ?? effective?.type ?? input.type ?? parent?.type) as EntryType | undefined;
      if (!type || !(CHILD_ENTRY_TYPES as readonly string[]).includes(type))
        throw badRequest('Unknown entry type.', { type: 'Unknown entry type.' });
      if (input.type && input.type !== type)
        throw badRequest('The type of an entry cannot change.', { type: 'The type cannot change.' });
      if (parentId !== ROOT_ENTRY_ID && !parent) throw badRequest(`There is no parent entry ${parentId}.`);
      if (own && input.version !== own.version)
        throw conflict('This entry was changed by someone else meanwhile. Reload it to see the changes.');
      if (!own && input.version !== null && !input.isInherited)
        throw conflict('This entry was removed meanwhile. Reload the page.');
      const { data, errors } = validateEntry({
        id,
        name: input.name,
        order: input.order,
        type,
        data: input.data,
      });
      if (type === 'apiKeyEntry') checkApiKey(data as never, errors);
      // An entry grants no role and sets no scope's settings beyond the administrator saving it.
      for (const [field, message] of Object.entries(
        entryScopesOutside(type, data, scopesWithPermission(actor, 'configuration:edit')),
      ))
        errors[field] ??= message;
      const url = type === 'apiWebhookEntry' ? (data as { url?: string }).url : undefined;
      if (url && !errors['data.url']) {
        // The editor strips credentials as they are typed (URL input); a URL that still
        // carries them came some other way and is refused rather than quietly changed (issue 8).
        const typed = (input.data as { url?: unknown } | undefined)?.url;
        const raw = typeof typed === 'string' ? typed.trim() : url;
        const refusal = await checkWebhookUrl(raw, settings.webhooksAllowLoopback, true);
        if (refusal) errors['data.url'] = refusal;
      }
      if (Object.keys(errors).length === 0)
        await attachEntryFiles(
          settings.files,
          trx,
          actor,
          configurationId,
          data as Record<string, unknown>,
          errors,
        );
      if (Object.keys(errors).length > 0) throw badRequest(invalidFieldsMessage(errors), errors);
      const stored = data as Record<string, unknown>;
      if (type === 'apiWebhookEntry') {
        // The signing key pair is made here; the private key stays in configuration_secrets.
        const ownPublic = own ? (own.data as { publicKey?: string }).publicKey : undefined;
        const secret = own ? await repo.findSecret(trx, configurationId, id) : undefined;
        if (ownPublic && secret) stored.publicKey = ownPublic;
        else {
          const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
          stored.publicKey = pair.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString().trim();
          (stored as { $privateKey?: string }).$privateKey = pair.privateKey
            .export({ type: 'pkcs8', format: 'pem' })
            .toString();
        }
      }
      const privateKey = (stored as { $privateKey?: string }).$privateKey;
      delete (stored as { $privateKey?: string }).$privateKey;
      const write = {
        configurationId,
        id,
        parentId,
        type,
        name: input.name.trim(),
        order: input.order,
        isDefault: input.isDefault,
        isDisabled: input.isDisabled,
        data: stored,
        by: actor.id,
      };
      if (own) {
        if (!(await repo.updateEntry(trx, { ...write, version: own.version })))
          throw conflict('This entry was changed by someone else meanwhile. Reload it to see the changes.');
      } else await repo.insertEntry(trx, write);
      if (privateKey) await repo.saveSecret(trx, configurationId, id, privateKey);
      await entrySavedHooks.get(type)?.(trx, {
        configurationId,
        entryId: id,
        scopePath: existing.scopePath,
        name: write.name,
        data: stored,
      });
      if (DUE_DATE_TYPES.has(type)) await scheduleDueDateRecompute(trx, settings.jobs, existing.scopePath);
      await repo.notifyChange(trx);
    })
    .catch(rethrowUniqueAsConflict);
  invalidateConfigurationCache(db);
  return entryView(db, actor, existing, id);
}

/**
 * What another feature does, in the saving transaction, when an entry of a type it owns is saved:
 * wired in app.ts, as the configuration uses no other feature.
 */
export type EntrySavedHook = (
  trx: Trx,
  saved: { configurationId: string; entryId: string; scopePath: string; name: string; data: unknown },
) => Promise<void>;
const entrySavedHooks = new Map<EntryType, EntrySavedHook>();

export function onEntrySaved(type: EntryType, hook: EntrySavedHook): void {
  entrySavedHooks.set(type, hook);
}

/** POST …/edit/{c}/{id}/revert: removes this configuration's override of an inherited entry. */
export async function revertEntry(
  db: Db,
  actor: Actor,
  configurationId: string,
  id: string,
  jobs?: JobQueue,
) {
  const c = await configurationOrNotFound(db, configurationId);
  assertCanEdit(actor, c.scopePath);
  const chain = await loadChain(db, c);
  const inheritedExists = chain.some((x) => x.id !== c.id && x.entries.some((e) => e.id === id));
  const own = await repo.findEntry(db, configurationId, id);
  if (!own || !inheritedExists)
    throw badRequest('Only an entry that overrides an inherited one can be reverted.');
  await db.transaction().execute(async (trx) => {
    await repo.deleteEntry(trx, configurationId, id);
    if (DUE_DATE_TYPES.has(own.type)) await scheduleDueDateRecompute(trx, jobs, c.scopePath);
    await repo.notifyChange(trx);
  });
  invalidateConfigurationCache(db);
  return entryView(db, actor, c, id);
}
