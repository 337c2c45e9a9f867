import { type CorrespondenceItem, fieldErrorsOf, richTextPlain, sanitizeRichText } from '@dossier/core';
import { z } from 'zod';
import { recordEvent } from '../../audit/events.js';
import type { ActionOffer } from '../../http/actions.js';
import type { AppDeps } from '../../http/deps.js';
import { conflict, fieldsInvalid, forbidden, notFound } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { attachRequestFile, canHandleRequest, loadVisibleRequest, touchRequest } from '../requests/index.js';
import { isCorrespondenceEditable, listRequestCorrespondence } from './list.js';
import { shareWithSenderOffer, stopSharingWithSenderOffer } from './policy.js';
import {
  acceptSender,
  findCorrespondence,
  type StoredAttachment,
  setSharedWithSender,
  updateCorrespondenceContent,
} from './repository.js';

// Editing a correspondence entry (POST /requests/{n}/correspondence/{messageId}): the author of a
// note may change its content and attachments while the request is open. Issued letters and
// messages are records of what was sent or received and never change.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const editCorrespondenceBody = z.object({
  content: z.unknown().optional(),
  attachments: z
    .array(z.object({ key: z.string().min(1).max(100), name: z.string().max(300).optional() }), {
      error: 'Attachments must be a list of files.',
    })
    .max(50, 'At most 50 attachments.')
    .default([]),
});

export async function editCorrespondence(
  deps: AppDeps,
  actor: Actor,
  requestNumber: string,
  messageId: string,
  body: unknown,
): Promise<CorrespondenceItem> {
  return deps.db.transaction().execute(async (trx) => {
    const request = await loadVisibleRequest(trx, actor, requestNumber, { forUpdate: true });
    const row = UUID.test(messageId)
      ? await findCorrespondence(trx, requestNumber, messageId, { forUpdate: true })
      : undefined;
    if (!row) throw notFound('No such correspondence.');
    if (request.status === 'closed') throw conflict('The request is closed.');
    if (!isCorrespondenceEditable(actor, request, row)) throw forbidden('You may not edit this entry.');

    const parsed = editCorrespondenceBody.safeParse(body ?? {});
    if (!parsed.success) throw fieldsInvalid(fieldErrorsOf(parsed.error.issues));
    const doc = sanitizeRichText(parsed.data.content);
    if (!richTextPlain(doc).trim()) throw fieldsInvalid({ content: 'This field is required.' });

    // Files already on the entry stay; new ones must be the actor's uploads (or the request's).
    const before = row.attachments ?? [];
    const attachments: StoredAttachment[] = [];
    for (const [i, file] of parsed.data.attachments.entries()) {
      const kept = before.find((a) => a.key === file.key);
      if (kept) attachments.push(kept);
      else {
        await attachRequestFile(deps.files, trx, actor, requestNumber, file.key, `attachments.${i}`);
        attachments.push({ key: file.key, name: file.name ?? file.key });
      }
    }
    const at = new Date();
    await updateCorrespondenceContent(trx, row.id, {
      body: { type: 'richText', content: doc },
      attachments,
      updatedBy: actor.id,
      at,
    });
    await recordEvent(trx, {
      type: 'request.correspondenceEdited',
      aggregateType: 'request',
      aggregateId: requestNumber,
      actor: actor.id,
      payload: { summary: `Edited a ${row.is_urgent_note ? 'urgent ' : ''}note.`, messageId: row.id },
    });
    await touchRequest(trx, requestNumber, actor.id, at);
    const items = await listRequestCorrespondence(trx, actor, request);
    return items.find((item) => item.messageId === row.id) as CorrespondenceItem;
  });
}

/**
 * POST /requests/{n}/correspondence/{id}/accept-sender: a handler checked that a message matched by
 * its number really comes from the recipient; from now on the sender side sees it too.
 */
export async function acceptMessageSender(
  deps: AppDeps,
  actor: Actor,
  requestNumber: string,
  messageId: string,
) {
  return deps.db.transaction().execute(async (trx) => {
    const request = await loadVisibleRequest(trx, actor, requestNumber, { forUpdate: true });
    if (!canHandleRequest(actor, request)) throw forbidden('You may not work this request.');
    const row = UUID.test(messageId) ? await findCorrespondence(trx, requestNumber, messageId) : undefined;
    if (!row) throw notFound('No such correspondence.');
    if (request.status === 'closed') throw conflict('The request is closed.');
    if (!(await acceptSender(trx, requestNumber, messageId)))
      throw conflict('The sender of this message is already accepted.');
    const from = row.from_address?.email ?? 'an unknown address';
    await recordEvent(trx, {
      type: 'request.messageSenderAccepted',
      aggregateType: 'request',
      aggregateId: requestNumber,
      actor: actor.id,
      payload: {
        summary: `Accepted the message from ${from} as the recipient's.`,
        correspondenceId: messageId,
      },
    });
    await touchRequest(trx, requestNumber, actor.id, new Date());
    const items = await listRequestCorrespondence(trx, actor, request);
    return { item: items.find((i) => i.messageId === messageId) };
  });
}

/**
 * POST /requests/{n}/correspondence/{id}/share-with-sender (`share`) and …/stop-sharing-with-sender:
 * a handler gives the sender side a received message's body and attachments, or takes them back.
 * Recorded in the history; the event tells whoever has the request open that it changed. Files
 * that are invoices, payment documents or results not delivered stay staff's all the same.
 */
export async function setMessageSharedWithSender(
  deps: AppDeps,
  actor: Actor,
  requestNumber: string,
  messageId: string,
  share: boolean,
) {
  return deps.db.transaction().execute(async (trx) => {
    const request = await loadVisibleRequest(trx, actor, requestNumber, { forUpdate: true });
    if (!canHandleRequest(actor, request)) throw forbidden('You may not work this request.');
    const row = UUID.test(messageId)
      ? await findCorrespondence(trx, requestNumber, messageId, { forUpdate: true })
      : undefined;
    if (!row) throw notFound('No such correspondence.');
    const offer: ActionOffer = share
      ? shareWithSenderOffer(actor, request, row)
      : stopSharingWithSenderOffer(actor, request, row);
    if (offer === 'forbidden') throw forbidden('You may not work this request.');
    if (offer !== 'offered') throw conflict(offer.conflict);
    const at = new Date();
    if (!(await setSharedWithSender(trx, requestNumber, messageId, share ? { by: actor.id, at } : null)))
      throw conflict(
        share
          ? 'This message is already shared with the sender.'
          : 'This message is not shared with the sender.',
      );
    const from = row.from_address?.email ?? 'an unknown address';
    const subject = row.subject ? ` ("${row.subject.slice(0, 120)}")` : '';
    await recordEvent(trx, {
      type: share ? 'request.messageSharedWithSender' : 'request.messageSharingStopped',
      aggregateType: 'request',
      aggregateId: requestNumber,
      actor: actor.id,
      payload: {
        summary: share
          ? `Shared the message from ${from}${subject} with the sender.`
          : `Stopped sharing the message from ${from}${subject} with the sender.`,
        correspondenceId: messageId,
      },
    });
    await touchRequest(trx, requestNumber, actor.id, at);
    const items = await listRequestCorrespondence(trx, actor, request);
    return { item: items.find((i) => i.messageId === messageId) };
  });
}
