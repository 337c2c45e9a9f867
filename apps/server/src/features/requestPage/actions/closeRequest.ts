import { describeTags, REQUEST_TAGS, tagValuesSchema, validateTags } from '@dossier/core';
import { z } from 'zod';
import { recordEvent } from '../../../audit/events.js';
import { conflict, fieldsInvalid } from '../../../http/errors.js';
import { insertCorrespondence } from '../../correspondence/index.js';
import { notifySubmitters } from '../../notifications/index.js';
import { canHandleRequest, touchRequest } from '../../requests/index.js';
import { closeRequestRow } from '../../results/index.js';
import { publishRequestWebhook } from '../../webhooks/index.js';
import { defineRequestAction } from './context.js';

// Close request: a handler closes the request with the required close tags and a notice;
// an empty notice becomes 'The request has been closed. ($0)' with the chosen tags. The notice is
// kept as a note in the correspondence, and the sender's submitters are told.

const body = z.object({
  tags: tagValuesSchema,
  notice: z.string().max(10_000).nullish(),
});

export const closeRequest = defineRequestAction({
  name: 'closeRequest',
  body,
  offer({ actor, request }) {
    if (!canHandleRequest(actor, request)) return 'forbidden';
    if (request.status === 'closed') return { conflict: 'The request is already closed.' };
    return 'offered';
  },
  async run(trx, { deps, actor, request }, input) {
    const errors = validateTags(REQUEST_TAGS.close, input.tags);
    if (Object.keys(errors).length > 0) throw fieldsInvalid(errors);
    const n = request.request_number;
    const now = new Date();
    if (!(await closeRequestRow(trx, n, actor.id, now))) throw conflict('The request is already closed.');
    const reasons = describeTags(REQUEST_TAGS.close, input.tags);
    const notice = input.notice?.trim() || `The request has been closed. (${reasons})`;
    await insertCorrespondence(trx, {
      requestNumber: n,
      kind: 'note',
      body: { type: 'text', content: notice },
      attachments: [],
      createdBy: actor.id,
      createdAt: now,
    });
    await recordEvent(trx, {
      type: 'request.closed',
      aggregateType: 'request',
      aggregateId: n,
      actor: actor.id,
      payload: {
        summary: `Closed the request (${reasons}).`,
        tags: input.tags,
        notice,
        changes: { status: { from: request.status, to: 'closed' } },
      },
    });
    await touchRequest(trx, n, actor.id, now);
    await publishRequestWebhook(trx, deps, request, 'requestClosed', {
      requestNumber: n,
      tags: input.tags,
      notice,
    });
    await notifySubmitters(trx, deps.live, request, actor, {
      type: 'requestClosed',
      text: `Request ${n} has been closed: ${notice}`,
    });
    return {};
  },
});
