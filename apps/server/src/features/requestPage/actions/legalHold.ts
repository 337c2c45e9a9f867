import { REQUIRED_MESSAGE } from '@dossier/core';
import { z } from 'zod';
import { recordEvent } from '../../../audit/events.js';
import { canHoldRequest, setLegalHold, touchRequest } from '../../requests/index.js';
import { defineRequestAction } from './context.js';

// A legal hold (issue 36): a manager or administrator of the request's scope stops retention and
// erasure for this request, with a reason, until it is removed. Both are in the history (staff only).

const reason = z
  .string({ error: REQUIRED_MESSAGE })
  .trim()
  .min(1, REQUIRED_MESSAGE)
  .max(1000, 'Must be at most 1000 characters long.');

export const placeLegalHold = defineRequestAction({
  name: 'placeLegalHold',
  body: z.object({ reason }),
  offer({ actor, request }) {
    if (!canHoldRequest(actor, request)) return 'forbidden';
    if (request.legal_hold_at) return { conflict: 'The request is already on legal hold.' };
    return 'offered';
  },
  async run(trx, { actor, request }, input) {
    const n = request.request_number;
    await setLegalHold(trx, n, { at: new Date(), by: actor.id, reason: input.reason });
    await recordEvent(trx, {
      type: 'request.legalHoldPlaced',
      aggregateType: 'request',
      aggregateId: n,
      actor: actor.id,
      payload: { summary: `Placed a legal hold: ${input.reason}`, reason: input.reason },
    });
    await touchRequest(trx, n, actor.id);
    return {};
  },
});

export const removeLegalHold = defineRequestAction({
  name: 'removeLegalHold',
  body: z.object({ reason: reason.optional() }),
  offer({ actor, request }) {
    if (!canHoldRequest(actor, request)) return 'forbidden';
    if (!request.legal_hold_at) return { conflict: 'The request is not on legal hold.' };
    return 'offered';
  },
  async run(trx, { actor, request }, input) {
    const n = request.request_number;
    await setLegalHold(trx, n, null);
    await recordEvent(trx, {
      type: 'request.legalHoldRemoved',
      aggregateType: 'request',
      aggregateId: n,
      actor: actor.id,
      payload: {
        summary: input.reason ? `Removed the legal hold: ${input.reason}` : 'Removed the legal hold.',
        reason: input.reason ?? null,
        was: request.legal_hold_reason,
      },
    });
    await touchRequest(trx, n, actor.id);
    return {};
  },
});
