import type { RequestRecipient } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';

// The one write of the select-recipient page: the request's recipient snapshot and the columns
// copied from it for searching. The caller holds the row lock and checked the version.

export async function storeRecipientSnapshot(
  db: DbOrTrx,
  requestNumber: string,
  recipient: RequestRecipient,
) {
  await db
    .updateTable('requests')
    .set({
      recipient: JSON.stringify(recipient),
      recipient_id: recipient.recipientId ?? null,
      recipient_name: recipient.name,
    })
    .where('request_number', '=', requestNumber)
    .execute();
}
