import {
  cleanedDirectoryFields,
  dropUnnamedContacts,
  normalizePhone,
  type RecipientState,
  type RequestRecipient,
  recipientState,
  requestRecipientSchema,
  type SelectRecipientView,
  searchSummary,
  validateEmail,
  validateRecipient,
} from '@dossier/core';
import { diffRecords, recordEvent } from '../../audit/events.js';
import type { Db, DbOrTrx } from '../../db/database.js';
import { badRequest, conflict, forbidden } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { recipientsRepository as recipients } from '../recipients/index.js';
import { canHandleRequest, loadVisibleRequest, type RequestRow, touchRequest } from '../requests/index.js';
import { searchRecipientSnapshots } from '../wizard/index.js';
import { storeRecipientSnapshot } from './repository.js';

// Select recipient: a handler of the request's scope searches the
// recipient directory (the recipients feature's own search), picks an entry or enters a new one,
// edits it and saves it into the request as its recipient snapshot.

export const CLOSED_REQUEST = 'The request is closed: its recipient can no longer be changed.';
export const STALE_REQUEST =
  'The request was changed by someone else since you opened it. Nothing was saved: reload the page and choose the recipient again.';
const PAGE_SIZE = 10;

export interface SelectRecipientQuery {
  enterNew?: boolean | undefined;
  name?: string | undefined;
  phone?: string | undefined;
  address?: string | undefined;
  email?: string | undefined;
  trigger?: boolean | undefined;
  pageOffset: number;
}

/** The request, if the actor may handle it: 404 unknown, 403 not visible or not a handler there. */
async function loadHandledRequest(db: DbOrTrx, actor: Actor, requestNumber: string, forUpdate = false) {
  const row = await loadVisibleRequest(db, actor, requestNumber, { forUpdate });
  if (!canHandleRequest(actor, row)) throw forbidden();
  return row;
}

const snapshotOf = (row: RequestRow) => requestRecipientSchema.parse(row.recipient ?? {});

/** new / updated / unchanged: the snapshot against the directory entry of the version it was taken from. */
export async function stateOfSnapshot(db: DbOrTrx, snapshot: RequestRecipient): Promise<RecipientState> {
  if (!snapshot.recipientId || snapshot.version == null) return 'new';
  const stored = await recipients.findRecipientVersion(db, snapshot.recipientId, snapshot.version);
  return recipientState(snapshot, stored?.data);
}

export async function getSelectRecipientView(
  db: DbOrTrx,
  actor: Actor,
  requestNumber: string,
  query: SelectRecipientQuery,
): Promise<SelectRecipientView> {
  const row = await loadHandledRequest(db, actor, requestNumber);
  const current = snapshotOf(row);
  const terms = { name: query.name, phone: query.phone, address: query.address, email: query.email };
  const result = query.trigger
    ? await searchRecipientSnapshots(db, terms, { pageOffset: query.pageOffset, pageSize: PAGE_SIZE })
    : undefined;
  const email = query.email?.trim() ?? '';
  return {
    $type: 'selectRecipient',
    title: `Select Recipient: ${row.request_number}`,
    requestNumber: row.request_number,
    version: row.version,
    isClosed: row.status === 'closed',
    current: { recipient: current, state: await stateOfSnapshot(db, current) },
    search: {
      terms: {
        name: terms.name ?? '',
        phone: terms.phone ?? '',
        address: terms.address ?? '',
        email: terms.email ?? '',
      },
      result: result && { ...result, summary: searchSummary(result) },
    },
    enterNew: query.enterNew ?? false,
    // A new recipient takes the searched email only when it is a valid address.
    newRecipient: requestRecipientSchema.parse({
      name: query.name?.trim() ?? '',
      phone: query.phone?.trim() ?? '',
      email: email && validateEmail(email).ok ? email : null,
      country: 'AU',
    }),
  };
}

const emptyToNull = (v: string | null | undefined) => {
  const t = (v ?? '').trim();
  return t.length === 0 ? null : t;
};

/** Checks the edited recipient (400 with fields) and turns it into the snapshot to store. */
function toSnapshot(input: RequestRecipient): RequestRecipient {
  const contact = input.contact && emptyToNull(input.contact.name) ? input.contact : null;
  const { version: _version, attachments: _attachments, ...checked } = input;
  const errors = validateRecipient({ ...checked, tags: {}, contacts: contact ? [contact] : [] });
  // The contact's field errors are reported under `contact`, where the form shows it.
  const fields = Object.fromEntries(
    Object.entries(errors).map(([k, v]) => [k.replace(/^contacts\.0\./, 'contact.'), v]),
  );
  if (Object.keys(fields).length > 0) throw badRequest('Please correct the marked fields.', fields);
  const phone = (v: string | null | undefined) => {
    const t = emptyToNull(v);
    if (t === null) return null;
    const n = normalizePhone(t, input.country);
    return n.ok ? n.value : t;
  };
  return {
    recipientId: emptyToNull(input.recipientId),
    version: input.recipientId ? (input.version ?? null) : null,
    name: input.name.trim(),
    phone: phone(input.phone) ?? '',
    fax: phone(input.fax),
    email: emptyToNull(input.email),
    ...cleanedDirectoryFields(input),
    notes: emptyToNull(input.notes),
    attachments: input.attachments,
    tags: input.tags,
    // Only the contact the request is addressed to travels with it; the list stays in the directory.
    contacts: [],
    contact: contact && {
      name: contact.name.trim(),
      position: emptyToNull(contact.position),
      phone: phone(contact.phone),
      email: emptyToNull(contact.email),
    },
  };
}

/** A flat record of the snapshot for the event's list of changed fields. */
function flat(r: RequestRecipient): Record<string, unknown> {
  const { contacts: _contacts, contact, ...rest } = r;
  return { ...rest, contact: contact ? [contact.name, contact.position].filter(Boolean).join(', ') : null };
}

export async function saveRequestRecipient(
  db: Db,
  actor: Actor,
  requestNumber: string,
  input: { version: number; recipient: RequestRecipient },
) {
  const recipient = toSnapshot({
    ...input.recipient,
    contacts: dropUnnamedContacts(input.recipient.contacts),
  });
  return db.transaction().execute(async (trx) => {
    const row = await loadHandledRequest(trx, actor, requestNumber, true);
    if (row.status === 'closed') throw conflict(CLOSED_REQUEST);
    if (row.version !== input.version) throw conflict(STALE_REQUEST);
    const before = snapshotOf(row);
    const changes = diffRecords(flat(before), flat(recipient));
    if (Object.keys(changes).length > 0) {
      await storeRecipientSnapshot(trx, requestNumber, recipient);
      const summary =
        before.name === recipient.name && before.recipientId === recipient.recipientId
          ? `The recipient ${recipient.name} was updated (${Object.keys(changes).join(', ')}).`
          : `The recipient was changed from ${before.name || 'none'} to ${recipient.name}.`;
      await recordEvent(trx, {
        type: 'request.recipientChanged',
        aggregateType: 'request',
        aggregateId: requestNumber,
        actor: actor.id,
        payload: { summary, changes },
      });
      await touchRequest(trx, requestNumber, actor.id);
    }
    const saved = await loadVisibleRequest(trx, actor, requestNumber);
    return {
      requestNumber,
      version: saved.version,
      recipient,
      state: await stateOfSnapshot(trx, recipient),
    };
  });
}
