import { mentionedUserIds, richTextPlain, sanitizeRichText } from '@dossier/core';
import { z } from 'zod';
import { recordEvent } from '../../../audit/events.js';
import { fieldsInvalid, forbidden } from '../../../http/errors.js';
import { insertCorrespondence } from '../../correspondence/index.js';
import { createNotification } from '../../notifications/index.js';
import {
  canAddUrgentNote,
  canHandleRequest,
  canSubmitterAct,
  isRequestSender,
  mentionableUsers,
  touchRequest,
} from '../../requests/index.js';
import { usersWorkingRequest } from '../../tasks/index.js';
import { defineRequestAction } from './context.js';

// Add note: a rich text note in the request's correspondence. Urgent only with
// canAddUrgentNote. Each @[Name](userId) mention of a user who may see the request notifies that
// user; the others working the request (assignees of its tasks) are told that a note was added.
// The workflow reacts to request.noteAdded: an urgent note raises a senderUrgentNote task, and a
// note by the sender side (bySender) answers the request's open senderActionRequired tasks.

const body = z.object({
  body: z.unknown(),
  isUrgent: z.boolean().default(false),
});

export const addNote = defineRequestAction({
  name: 'addNote',
  body,
  offer({ actor, request }) {
    // Handlers, the sender organisation's submitters and external users with a reference on it.
    const external = actor.roles.some((r) => r.role === 'c:roles:external');
    if (!canHandleRequest(actor, request) && !canSubmitterAct(actor, request) && !external)
      return 'forbidden';
    if (request.status === 'closed') return { conflict: 'The request is closed.' };
    return 'offered';
  },
  async run(trx, { deps, actor, request }, input) {
    const doc = sanitizeRichText(input.body);
    const text = richTextPlain(doc).trim();
    if (!text) throw fieldsInvalid({ body: 'This field is required.' });
    if (text.length > 100_000) throw fieldsInvalid({ body: 'The note is too long.' });
    if (input.isUrgent && !canAddUrgentNote(actor, request))
      throw forbidden('You may not add urgent notes to this request.');
    const n = request.request_number;
    const now = new Date();
    const messageId = await insertCorrespondence(trx, {
      requestNumber: n,
      kind: 'note',
      isUrgentNote: input.isUrgent,
      body: { type: 'richText', content: doc },
      attachments: [],
      createdBy: actor.id,
      createdAt: now,
    });
    const target = `/requests/${n}`;
    const mentioned = (await mentionableUsers(trx, request, mentionedUserIds(doc))).filter(
      (u) => u.id !== actor.id,
    );
    for (const user of mentioned) {
      await createNotification(trx, deps.live, {
        userId: user.id,
        type: 'mention',
        target,
        text: `${actor.name} mentioned you in a note on request ${n}.`,
        createdBy: actor,
      });
    }
    const told = new Set([actor.id, ...mentioned.map((u) => u.id)]);
    // Those working the request, and its submitter when the note comes from the staff side: the
    // sender side sees every note, so a handler's note is news to them (issue 22 item 8). The
    // submitter is told only while a role still lets them see the request.
    const submitter =
      request.submitted_by && !isRequestSender(actor, request)
        ? await mentionableUsers(trx, request, [request.submitted_by])
        : [];
    const readers = [...(await usersWorkingRequest(trx, n)), ...submitter.map((u) => u.id)];
    for (const userId of readers) {
      if (told.has(userId)) continue;
      told.add(userId);
      await createNotification(trx, deps.live, {
        userId,
        type: 'requestNoteAdded',
        target,
        text: `${actor.name} added ${input.isUrgent ? 'an urgent' : 'a'} note to request ${n}.`,
        createdBy: actor,
      });
    }
    const mentions = mentioned.map((u) => u.name).join(', ');
    await recordEvent(trx, {
      type: 'request.noteAdded',
      aggregateType: 'request',
      aggregateId: n,
      actor: actor.id,
      payload: {
        summary: `Added ${input.isUrgent ? 'an urgent' : 'a'} note${mentions ? ` mentioning ${mentions}` : ''}.`,
        messageId,
        isUrgent: input.isUrgent,
        ...(isRequestSender(actor, request) ? { bySender: true } : {}),
      },
    });
    await touchRequest(trx, n, actor.id, now);
    return { messageId };
  },
});
