import { z } from 'zod';
import { getNearestScopeEntry } from '../../configuration/index.js';
import {
  resendRecipientAccess as resend,
  revokeRecipientAccess as revoke,
} from '../../recipientAccess/index.js';
import { canHandleRequest } from '../../requests/index.js';
import { defineRequestAction, type RequestActionContext } from './context.js';

// Revoke and Re-send of the recipient's link (issue 34), from the request page's list of links.
// They are request actions so the offer, the row lock, the refusals and the answer are the others'.

function offerWhileIssued(ctx: RequestActionContext) {
  if (!canHandleRequest(ctx.actor, ctx.request)) return 'forbidden' as const;
  if (ctx.request.status === 'closed') return { conflict: 'The request is closed.' };
  if (!ctx.request.issued_at) return { conflict: 'The request has not been issued yet.' };
  return 'offered' as const;
}

export const revokeRecipientAccess = defineRequestAction({
  name: 'revokeRecipientAccess',
  body: z.object({ accessId: z.uuid({ error: 'Choose a link of this request.' }) }),
  offer(ctx) {
    return canHandleRequest(ctx.actor, ctx.request) ? 'offered' : 'forbidden';
  },
  async run(trx, { actor, request }, input) {
    await revoke(trx, request, actor.id, input.accessId);
    return { accessId: input.accessId };
  },
});

export const resendRecipientAccess = defineRequestAction({
  name: 'resendRecipientAccess',
  body: z.object({}),
  offer: offerWhileIssued,
  async run(trx, { deps, actor, request }) {
    const scope = await getNearestScopeEntry(trx, request.scope);
    return resend(trx, deps.config, request, actor.id, scope?.legalEntity || scope?.name || request.scope);
  },
});
