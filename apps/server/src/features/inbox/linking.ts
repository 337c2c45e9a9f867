import { createHash, randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import type { AttachmentClassification } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { DbOrTrx, Trx } from '../../db/database.js';
import type { FileStorage } from '../../files/storage.js';
import { type LiveHub, publishTopic } from '../../live/hub.js';
import { insertCorrespondence, type StoredAttachment } from '../correspondence/index.js';
import { listViewers } from '../presence/index.js';
import { findRecipient } from '../recipients/index.js';
import { RECEIVED_FILE, REQUEST_FILE_OWNER, type RequestRow, touchRequest } from '../requests/index.js';
import * as repo from './repository.js';

// Linking an incoming message to a request makes it correspondence of that request (kind message),
// whether the mail was matched on arrival or linked by a person from the inbox. The attachments a
// person kept (and every attachment of a matched message) are copied to files of the request, so
// they can become results or invoices there and stay when the message is unlinked; blocked ones are
// listed, flagged, but never copied or offered. Viewers of the request see the entry appear live.

export interface LinkInput {
  message: repo.InboxMessageRow;
  request: RequestRow;
  /** Per attachment of the message, by index; missing means 'attachment'. */
  classifications: AttachmentClassification[];
  actorId: string | null;
  storage: FileStorage;
  live?: LiveHub | undefined;
  /** Matched by its number from an address that is not the recipient's: staff accept it first. */
  unverifiedSender?: boolean;
}

export interface LinkedAttachment {
  index: number;
  key: string;
  classification: AttachmentClassification;
}

/** Copies a stored file's bytes under a new key; answers the key and the SHA-256 of what was read. */
async function copyBytes(storage: FileStorage, key: string): Promise<{ key: string; sha256: string }> {
  const target = randomBytes(16).toString('base64url');
  const hash = createHash('sha256');
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await storage.write(target, (await storage.open(key)).pipe(meter));
  return { key: target, sha256: hash.digest('hex') };
}

export function senderLabel(message: Pick<repo.InboxMessageRow, 'from_address' | 'from_email'>): string {
  const from = message.from_address;
  return from.displayName
    ? `${from.displayName} <${message.from_email}>`
    : message.from_email || 'an unknown sender';
}

/**
 * Is the address one of the request's recipient: its email or a contact's, as on the request or in
 * the directory entry it names? A message matched by number from anyone else is unverified.
 */
export async function isRecipientAddress(trx: DbOrTrx, request: RequestRow, email: string): Promise<boolean> {
  const address = email.trim().toLowerCase();
  if (!address) return false;
  type Entry =
    | { email?: string | null | undefined; contacts?: { email?: string | null | undefined }[] | undefined }
    | null
    | undefined;
  const addresses = (r: Entry) => [r?.email, ...(r?.contacts ?? []).map((c) => c.email)];
  const onRequest = request.recipient;
  const directory = onRequest?.recipientId ? await findRecipient(trx, onRequest.recipientId) : undefined;
  return [...addresses(onRequest), ...addresses(directory?.data)].some(
    (a) => (a ?? '').trim().toLowerCase() === address,
  );
}

/** Where a message not linked to any request lives: with the service's inbox, at the root. */
export const INBOX_SCOPE = '/';

/** The deepest scope that holds all of `scopes` ('/' for none or for two organisations' requests). */
export function commonScope(scopes: string[]): string {
  if (scopes.length === 0) return INBOX_SCOPE;
  const parts = scopes.map((s) => s.split('/').filter(Boolean));
  const [first = [], ...others] = parts;
  const shared: string[] = [];
  for (const [i, segment] of first.entries()) {
    if (!others.every((p) => p[i] === segment)) break;
    shared.push(segment);
  }
  return shared.length === 0 ? '/' : `/${shared.join('/')}/`;
}

/** Open inbox lists follow this topic: a message arrived, or one's links changed. */
export const INBOX_TOPIC = 'inbox';

/**
 * A message belongs to the scope of the requests it is linked to (their common scope), else to the
 * inbox's: so staff of one organisation see its replies and no other organisation's.
 */
export async function refreshMessageScope(trx: DbOrTrx, messageId: string): Promise<void> {
  await repo.setMessageScope(trx, messageId, commonScope(await repo.linkedRequestScopes(trx, messageId)));
  // Every link and unlink passes here: whoever has the message open sees its links change live,
  // and open inbox lists their status.
  await publishTopic(trx, `inbox:${messageId}`);
  await publishTopic(trx, INBOX_TOPIC);
}

export async function linkMessageToRequest(trx: Trx, input: LinkInput) {
  const { message, request, actorId } = input;
  const n = request.request_number;
  const stored = message.attachments ?? [];
  const attachments: StoredAttachment[] = [];
  const linked: LinkedAttachment[] = [];
  for (const [index, file] of stored.entries()) {
    if (file.blocked) {
      attachments.push({
        key: file.key,
        name: file.name,
        contentType: file.contentType,
        blocked: true,
        ...(file.blockedReason ? { blockedReason: file.blockedReason } : {}),
      });
      continue;
    }
    const classification = input.classifications[index] ?? 'attachment';
    if (classification === 'notIncluded') continue;
    const copy = await copyBytes(input.storage, file.key);
    await repo.insertReceivedFile(trx, {
      key: copy.key,
      name: file.name,
      contentType: file.contentType,
      size: file.size,
      sha256: copy.sha256,
      ownerType: REQUEST_FILE_OWNER,
      ownerId: n,
      // From outside: never one of the request's own files for the sender side (senderMayReadFile).
      classification: RECEIVED_FILE,
    });
    attachments.push({ key: copy.key, name: file.name, contentType: file.contentType });
    linked.push({ index, key: copy.key, classification });
  }
  const to = message.to_addresses[0] ?? null;
  const from = message.from_address;
  const at = new Date();
  const correspondenceId = await insertCorrespondence(trx, {
    requestNumber: n,
    kind: 'message',
    from: { displayName: from.displayName ?? null, email: from.email ?? null },
    to: to ? { displayName: to.displayName ?? null, email: to.email } : null,
    subject: message.subject,
    body: { type: 'text', content: message.body_text },
    attachments,
    messageId: message.message_id,
    createdBy: actorId,
    unverifiedSender: input.unverifiedSender ?? false,
    // A message matched on arrival is dated when it arrived; a linked one when it was linked.
    createdAt: actorId ? at : message.received_at,
  });
  await repo.insertLink(trx, {
    messageId: message.id,
    requestNumber: n,
    correspondenceId,
    linkedBy: actorId,
    at,
  });
  await refreshMessageScope(trx, message.id);
  const subject = message.subject ? `: "${message.subject.slice(0, 120)}"` : '';
  await recordEvent(trx, {
    type: actorId ? 'request.messageLinked' : 'request.messageReceived',
    aggregateType: 'request',
    aggregateId: n,
    actor: actorId,
    payload: {
      summary: actorId
        ? `Linked the message from ${senderLabel(message)}${subject}.`
        : `Received a message from ${senderLabel(message)}${subject}.`,
      inboxMessageId: message.id,
      correspondenceId,
    },
  });
  await touchRequest(trx, n, actorId, at);
  await pushToViewers(trx, input.live, n, correspondenceId);
  return { correspondenceId, linked };
}

/** Tells whoever has the request open that its correspondence changed (sent after the commit). */
export async function pushToViewers(
  trx: DbOrTrx,
  live: LiveHub | undefined,
  requestNumber: string,
  messageId: string,
) {
  if (!live) return;
  const viewers = await listViewers(trx, requestNumber);
  await live.publish(
    trx,
    viewers.map((v) => v.id),
    { $type: 'requestCorrespondence', requestNumber, messageId },
  );
}
