import { z } from 'zod';
import { getNearestScopeEntry } from '../../configuration/index.js';
import {
  resendRecipientAccess as resend,
  revokeRecipientAccess as revoke,
} from '../../recipientAccess/index.js';
import { canHandleRequest } from '../../requests/index.js';
import { defineRequestAction, type RequestActionContext } from './context.js';
import { resendByLetter } from './resendLetter.js';

// Revoke and Re-send of the recipient's link (issue 34), from the request page's list of links.
// They are request actions so the offer, the row lock, the refusals and the answer are the others'.
// Re-send goes the way the request was last issued: by email (recipientAccess/staff.ts), or by fax
// or post as a new letter (resendLetter.ts).

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
  async run(trx, ctx) {
    const { deps, actor, request } = ctx;
    // The way the request was last issued: by fax or post a new letter, else by email.
    if (request.issue_method === 'faxNumber' || request.issue_method === 'postal')
      return resendByLetter(trx, ctx, request.issue_method);
    const scope = await getNearestScopeEntry(trx, request.scope);
    return resend(trx, deps.config, request, actor.id, scope?.legalEntity || scope?.name || request.scope);
  },
});
