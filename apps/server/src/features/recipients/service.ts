import {
  type AdminRecipientView,
  cleanedDirectoryFields,
  dropUnnamedContacts,
  type HistoryEntry,
  normalizePhone,
  type PagingQuery,
  type RecipientForm,
  type RecipientSummary,
  type SearchAnswer,
  validateRecipient,
  withKnownTags,
} from '@dossier/core';
import { diffRecords, listHistory, recordEvent } from '../../audit/events.js';
import type { Db, DbOrTrx } from '../../db/database.js';
import { toSearchAnswer } from '../../db/search.js';
import type { FilesContext } from '../../files/service.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { hasPermission } from '../auth/index.js';
import { attachRecipientFiles } from './files.js';
import { mayEditRecipient, newRecipientScope, notYourRecipient } from './policy.js';
import * as repo from './repository.js';

// The tags of a recipient are the known definitions (core) with its chosen values.
export { RECIPIENT_TAGS } from '@dossier/core';

export function recipientView(
  actor: Actor,
  input: {
    id?: string;
    version?: number;
    scope?: string;
    data?: repo.RecipientData;
    history?: HistoryEntry[];
  },
): AdminRecipientView {
  const data = input.data;
  const scope = input.scope ?? newRecipientScope(actor);
  const owner = mayEditRecipient(actor, scope);
  return {
    $type: 'adminRecipient',
    title: data ? `Recipient: ${data.name}` : 'New Recipient',
    recipientId: input.id ?? null,
    scope,
    canEdit: hasPermission(actor, 'recipient:edit') && owner,
    ...(hasPermission(actor, 'recipient:edit') && !owner ? { readOnlyReason: notYourRecipient(scope) } : {}),
    recipient: {
      disabled: data?.disabled ?? false,
      tags: withKnownTags(data?.tags ?? {}),
      name: data?.name ?? '',
      phone: data?.phone ?? '',
      fax: data?.fax ?? '',
      email: data?.email ?? '',
      webSiteUrl: data?.webSiteUrl ?? '',
      streetAddress: data?.streetAddress ?? '',
      postalAddress: data?.postalAddress ?? '',
      country: data?.country ?? 'AU',
      notes: data?.notes ?? '',
      attachments: data?.attachments ?? [],
      contacts: data?.contacts ?? [],
      version: input.version ?? 0,
    },
    history: input.history ?? [],
  };
}

export async function getRecipientView(
  db: DbOrTrx,
  actor: Actor,
  id: string | undefined,
): Promise<AdminRecipientView> {
  if (id === undefined) return recipientView(actor, {});
  const row = await repo.findRecipient(db, id);
  if (!row) throw notFound('No such recipient.');
  return recipientView(actor, {
    id,
    version: row.version,
    scope: row.scope,
    data: row.data,
    history: await listHistory(db, 'recipient', id),
  });
}

const emptyToNull = (v: string | null | undefined) => {
  const t = (v ?? '').trim();
  return t.length === 0 ? null : t;
};

/** Checks the form and turns it into stored data: numbers normalised, unnamed contacts dropped. */
function toData(form: RecipientForm): repo.RecipientData {
  const tags = withKnownTags(form.tags);
  const errors = validateRecipient({ ...form, tags });
  if (Object.keys(errors).length > 0) throw badRequest('Please correct the marked fields.', errors);
  const { country } = cleanedDirectoryFields(form);
  const phone = (v: string | null | undefined) => {
    const t = emptyToNull(v);
    if (t === null) return null;
    const n = normalizePhone(t, country);
    return n.ok ? n.value : t;
  };
  return {
    disabled: form.disabled,
    name: form.name.trim(),
    phone: phone(form.phone) ?? '',
    fax: phone(form.fax),
    email: emptyToNull(form.email),
    ...cleanedDirectoryFields(form),
    notes: emptyToNull(form.notes),
    tags: Object.fromEntries(Object.entries(tags).map(([id, t]) => [id, { value: t.value ?? null }])),
    attachments: form.attachments,
    contacts: dropUnnamedContacts(form.contacts).map((c) => ({
      name: c.name.trim(),
      position: emptyToNull(c.position),
      phone: phone(c.phone),
      email: emptyToNull(c.email),
    })),
  };
}

export async function createRecipient(
  db: Db,
  files: FilesContext,
  actor: Actor,
  form: RecipientForm,
): Promise<AdminRecipientView> {
  const data = toData(form);
  return db.transaction().execute(async (trx) => {
    const id = await repo.insertRecipient(trx, data, actor.id, newRecipientScope(actor));
    await attachRecipientFiles(files, trx, actor, id, form.attachments);
    const changes = diffRecords({}, data);
    await recordEvent(trx, {
      type: 'recipientCreated',
      aggregateType: 'recipient',
      aggregateId: id,
      actor: actor.id,
      payload: { version: 1, changes },
    });
    return getRecipientView(trx, actor, id);
  });
}

export const STALE_RECIPIENT =
  'This recipient was changed by someone else since you opened it. Nothing was saved: reload the page to see the changes, then make yours again.';

/**
 * Whose entry it is comes before what the form holds: another scope's editor learns nothing more.
 * The route runs it before the body is even validated.
 */
export async function assertMayEditRecipient(db: DbOrTrx, actor: Actor, id: string): Promise<void> {
  const owned = await repo.findRecipient(db, id);
  if (!owned) throw notFound('No such recipient.');
  if (!mayEditRecipient(actor, owned.scope)) throw forbidden(notYourRecipient(owned.scope));
}

export async function updateRecipient(
  db: Db,
  files: FilesContext,
  actor: Actor,
  id: string,
  form: RecipientForm,
): Promise<AdminRecipientView> {
  await assertMayEditRecipient(db, actor, id);
  const data = toData(form);
  if (form.version === undefined)
    throw badRequest('The version being edited is missing.', { version: 'Required.' });
  const version = form.version;
  return db.transaction().execute(async (trx) => {
    const current = await repo.findRecipient(trx, id, true);
    if (!current) throw notFound('No such recipient.');
    if (!mayEditRecipient(actor, current.scope)) throw forbidden(notYourRecipient(current.scope));
    if (current.version !== version) throw conflict(STALE_RECIPIENT);
    const changes = diffRecords(current.data, data);
    if (Object.keys(changes).length === 0) return getRecipientView(trx, actor, id);
    await attachRecipientFiles(files, trx, actor, id, form.attachments);
    const next = await repo.updateRecipient(trx, id, version, data, actor.id);
    if (next === undefined) throw conflict(STALE_RECIPIENT);
    await recordEvent(trx, {
      type: 'recipientUpdated',
      aggregateType: 'recipient',
      aggregateId: id,
      actor: actor.id,
      payload: { version: next, changes },
    });
    return getRecipientView(trx, actor, id);
  });
}

export async function searchRecipients(
  db: DbOrTrx,
  terms: repo.RecipientSearch,
  paging: PagingQuery,
): Promise<SearchAnswer<RecipientSummary>> {
  const { rows, total } = await repo.searchRecipients(db, terms, paging.pageOffset, paging.pageSize);
  return toSearchAnswer(
    rows.map((r) => ({
      id: r.id,
      item: {
        name: r.name,
        phone: r.phone,
        email: r.email,
        address: r.street_address ?? r.postal_address,
        disabled: r.disabled,
      },
    })),
    total,
    paging,
  );
}
