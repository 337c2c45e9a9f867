import { recordEvent } from '../../audit/events.js';
import type { Trx } from '../../db/database.js';
import { findCorrespondenceOfOutbox } from './repository.js';

/**
 * Called by the mail sender, in its transaction, when an outbox message failed for good. A mail
 * about a request (its outbox row names it; an issued request also through its correspondence)
 * gives the request's history a request.mailDeliveryFailed event, to which the workflow answers
 * with an exception task. A mail about no request (password reset, activation) just stays failed
 * in the outbox, where administrators see it.
 */
export async function recordMailDeliveryFailure(
  trx: Trx,
  outbox: { id: string; to: string; subject: string; error: string | null; request_number: string | null },
): Promise<void> {
  const correspondence = await findCorrespondenceOfOutbox(trx, outbox.id);
  const requestNumber = correspondence?.request_number ?? outbox.request_number;
  if (!requestNumber) return;
  const issued = correspondence?.kind === 'issuedRequest';
  await recordEvent(trx, {
    type: 'request.mailDeliveryFailed',
    aggregateType: 'request',
    aggregateId: requestNumber,
    actor: null,
    payload: {
      summary: issued
        ? `The issued request could not be delivered to ${outbox.to}.`
        : `The mail "${outbox.subject}" could not be delivered to ${outbox.to}.`,
      kind: issued ? 'issuedRequest' : 'mail',
      messageId: correspondence?.id,
      mailOutboxId: outbox.id,
      to: outbox.to,
      subject: outbox.subject.slice(0, 200),
      error: outbox.error?.slice(0, 300) ?? undefined,
    },
  });
}
