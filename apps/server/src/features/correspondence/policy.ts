import { isReceivedCorrespondence } from '@dossier/core';
import type { ActionOffer } from '../../http/actions.js';
import type { Actor } from '../auth/index.js';
import { canHandleRequest, type RequestRow } from '../requests/index.js';

// Who may do what with a correspondence entry beyond reading it. What the sender side sees of an
// entry is the rule of @dossier/core (senderVisibility.ts); here: who may change that.

interface Entry {
  kind: string;
  unverified_sender: boolean;
  shared_with_sender_at: Date | string | null;
}

/**
 * Share with sender: a handler of the request gives the sender side a received message's body and
 * attachments (files that are invoices, payment documents or results not delivered stay staff's
 * whatever the message). Only a received message whose sender staff accepted, while the request is
 * open, and not twice.
 */
export function shareWithSenderOffer(actor: Actor, request: RequestRow, entry: Entry): ActionOffer {
  if (!canHandleRequest(actor, request)) return 'forbidden';
  if (!isReceivedCorrespondence(entry.kind))
    return { conflict: 'Only a received message is shared with the sender.' };
  if (entry.unverified_sender) return { conflict: 'Accept the sender of this message first.' };
  if (entry.shared_with_sender_at) return { conflict: 'This message is already shared with the sender.' };
  if (request.status === 'closed') return { conflict: 'The request is closed.' };
  return 'offered';
}

/**
 * Stop sharing with sender: a handler takes a shared message back. Allowed on a closed request too:
 * taking back what should not have reached the sender must never wait for a re-opening.
 */
export function stopSharingWithSenderOffer(actor: Actor, request: RequestRow, entry: Entry): ActionOffer {
  if (!canHandleRequest(actor, request)) return 'forbidden';
  if (!isReceivedCorrespondence(entry.kind))
    return { conflict: 'Only a received message is shared with the sender.' };
  if (!entry.shared_with_sender_at) return { conflict: 'This message is not shared with the sender.' };
  return 'offered';
}
