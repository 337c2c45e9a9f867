import type { Applicant, RequestContent, RequestRecipient, TagValues } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';

// The insert of a submitted request. The number is chosen by the caller; a number already taken
// inserts nothing (ON CONFLICT DO NOTHING, so the transaction stays usable) and the caller tries
// another.

export interface NewRequestRow {
  requestNumber: string;
  scope: string;
  submittedBy: string;
  submittedOnBehalfOf: string | null;
  referenceNumber: string | null;
  externalUserReferences: string[];
  applicant: Applicant;
  recipient: RequestRecipient;
  content: RequestContent;
  tags: TagValues;
  submittedAt: Date;
}

/** Answers false when the request number is already taken. */
export async function insertRequest(db: DbOrTrx, row: NewRequestRow): Promise<boolean> {
  const inserted = await db
    .insertInto('requests')
    .values({
      request_number: row.requestNumber,
      scope: row.scope,
      submitted_on_behalf_of: row.submittedOnBehalfOf,
      reference_number: row.referenceNumber,
      external_user_references: row.externalUserReferences,
      applicant: JSON.stringify(row.applicant),
      applicant_name: row.applicant.name,
      applicant_date_of_birth: row.applicant.dateOfBirth ?? null,
      recipient: JSON.stringify(row.recipient),
      recipient_id: row.recipient.recipientId ?? null,
      recipient_name: row.recipient.name,
      content: JSON.stringify(row.content),
      tags: JSON.stringify(row.tags),
      submitted_at: row.submittedAt,
      submitted_by: row.submittedBy,
      last_updated_at: row.submittedAt,
      last_updated_by: row.submittedBy,
      last_activity_at: row.submittedAt,
    })
    .onConflict((oc) => oc.column('request_number').doNothing())
    .returning('request_number')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function countRequests(db: DbOrTrx): Promise<number> {
  const row = await db
    .selectFrom('requests')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
