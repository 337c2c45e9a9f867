import { recordEvent } from '../../audit/events.js';
import type { DbOrTrx } from '../../db/database.js';
import { findCorrespondenceOfOutbox } from './repository.js';

/**
 * Called by the mail sender, in its transaction, when an outbox message failed for good. When the
 * message was an issued request, the request's history gets a request.mailDeliveryFailed event, to
 * which the workflow reacts with an exception task.
 */
export async function recordMailDeliveryFailure(
  trx: DbOrTrx,
  outbox: { id: string; to: string; error: string | null },
): Promise<void> {
  const correspondence = await findCorrespondenceOfOutbox(trx, outbox.id);
  if (correspondence?.kind !== 'issuedRequest') return;
  await recordEvent(trx, {
    type: 'request.mailDeliveryFailed',
    aggregateType: 'request',
    aggregateId: correspondence.request_number,
    actor: null,
    payload: {
      summary: `The issued request could not be delivered to ${outbox.to}.`,
      messageId: correspondence.id,
      mailOutboxId: outbox.id,
      to: outbox.to,
      error: outbox.error?.slice(0, 300) ?? undefined,
    },
  });
}
