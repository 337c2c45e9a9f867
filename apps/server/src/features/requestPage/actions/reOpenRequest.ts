import { describeTags, REQUEST_TAGS, tagValuesSchema, validateTags } from '@dossier/core';
import { z } from 'zod';
import { recordEvent } from '../../../audit/events.js';
import { conflict, fieldsInvalid } from '../../../http/errors.js';
import { getRequestSettings } from '../../configuration/index.js';
import { insertCorrespondence } from '../../correspondence/index.js';
import { notifySubmitters } from '../../notifications/index.js';
import { canHandleRequest, reopenClosedRequest, touchRequest } from '../../requests/index.js';
import { publishRequestWebhook } from '../../webhooks/index.js';
import { defineRequestAction } from './context.js';

// Re-open request: a handler re-opens a closed request with the required re-open tags; an
// empty notice becomes 'The request has been re-opened.'. Not offered at all when the request
// settings disableReOpenRequest. The request goes back to open (issued) or submitted (not yet).

const body = z.object({
  tags: tagValuesSchema,
  notice: z.string().max(10_000).nullish(),
});

export const reOpenRequest = defineRequestAction({
  name: 'reOpenRequest',
  body,
  async offer({ deps, actor, request }) {
    if (!canHandleRequest(actor, request)) return 'forbidden';
    if ((await getRequestSettings(deps.db, request.scope))?.disableReOpenRequest) return 'forbidden';
    if (request.status !== 'closed') return { conflict: 'The request is not closed.' };
    return 'offered';
  },
  async run(trx, { deps, actor, request }, input) {
    const errors = validateTags(REQUEST_TAGS.reOpen, input.tags);
    if (Object.keys(errors).length > 0) throw fieldsInvalid(errors);
    const n = request.request_number;
    const now = new Date();
    const status = request.issued_at ? 'open' : 'submitted';
    if (!(await reopenClosedRequest(trx, n, status))) throw conflict('The request is not closed.');
    const notice = input.notice?.trim() || 'The request has been re-opened.';
    await insertCorrespondence(trx, {
      requestNumber: n,
      kind: 'note',
      body: { type: 'text', content: notice },
      attachments: [],
      createdBy: actor.id,
      createdAt: now,
    });
    await recordEvent(trx, {
      type: 'request.reOpened',
      aggregateType: 'request',
      aggregateId: n,
      actor: actor.id,
      payload: {
        summary: `Re-opened the request (${describeTags(REQUEST_TAGS.reOpen, input.tags)}).`,
        tags: input.tags,
        notice,
        changes: { status: { from: 'closed', to: status } },
      },
    });
    await touchRequest(trx, n, actor.id, now);
    await publishRequestWebhook(trx, deps, request, 'requestReOpened', {
      requestNumber: n,
      tags: input.tags,
      notice,
    });
    await notifySubmitters(trx, deps.live, request, actor, {
      type: 'requestReOpened',
      text: `Request ${n} has been re-opened.`,
    });
    return {};
  },
});
