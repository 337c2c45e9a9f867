import { createRequestNumber } from '@dossier/core';
import type { DbOrTrx } from '../../src/db/database.js';

// Inserts a request row directly, for tests that need requests before (or without) the wizard.
// Defaults make a valid submitted request: a check-digit request number, applicant Jane Citizen, a
// recipient snapshot and empty content. Answers the request number.

export interface TestRequestInput {
  scope: string;
  requestNumber?: string;
  prefix?: string;
  status?: 'submitted' | 'open' | 'closed';
  applicant?: Record<string, unknown>;
  recipient?: Record<string, unknown>;
  content?: Record<string, unknown>;
  tags?: Record<string, string>;
  submittedAt?: Date;
  submittedBy?: string | null;
  submittedOnBehalfOf?: string | null;
  referenceNumber?: string | null;
  externalUserReferences?: string[];
  issuedAt?: Date | null;
  closedAt?: Date | null;
  closedBy?: string | null;
}

/**
 * A request number no request has: three random letters give 17,576 numbers per prefix and day, and
 * a file inserting dozens on one day met a taken one now and then (a flaky duplicate-key failure).
 */
async function freeRequestNumber(db: DbOrTrx, prefix: string, submittedAt: Date): Promise<string> {
  for (;;) {
    const candidate = createRequestNumber(prefix, submittedAt);
    const taken = await db
      .selectFrom('requests')
      .select('request_number')
      .where('request_number', '=', candidate)
      .executeTakeFirst();
    if (!taken) return candidate;
  }
}

export async function insertTestRequest(db: DbOrTrx, input: TestRequestInput): Promise<string> {
  const submittedAt = input.submittedAt ?? new Date();
  const requestNumber =
    input.requestNumber ?? (await freeRequestNumber(db, input.prefix ?? 'TST', submittedAt));
  const applicant = { name: 'Jane Citizen', dateOfBirth: '1980-04-01', tags: {}, ...input.applicant };
  const recipient = {
    recipientId: null,
    version: null,
    name: 'Northside Medical Centre',
    phone: '02 9000 0000',
    email: 'records@northside.example',
    postalAddress: '1 Main Street, Sydney NSW 2000',
    attachments: [],
    tags: {},
    contacts: [],
    ...input.recipient,
  };
  const content = {
    itemTypes: [],
    additionalQuestions: [],
    additionalFiles: [],
    ...input.content,
  };
  await db
    .insertInto('requests')
    .values({
      request_number: requestNumber,
      scope: input.scope,
      status: input.status ?? 'submitted',
      submitted_on_behalf_of: input.submittedOnBehalfOf ?? null,
      reference_number: input.referenceNumber ?? null,
      external_user_references: input.externalUserReferences ?? [],
      applicant: JSON.stringify(applicant),
      applicant_name: String(applicant.name ?? ''),
      applicant_date_of_birth: (applicant.dateOfBirth as string | undefined) ?? null,
      recipient: JSON.stringify(recipient),
      recipient_id: (recipient.recipientId as string | null | undefined) ?? null,
      recipient_name: String(recipient.name ?? ''),
      content: JSON.stringify(content),
      tags: JSON.stringify(input.tags ?? {}),
      submitted_at: submittedAt,
      submitted_by: input.submittedBy ?? null,
      issued_at: input.issuedAt ?? null,
      closed_at: input.closedAt ?? (input.status === 'closed' ? new Date() : null),
      closed_by: input.closedBy ?? null,
      last_updated_at: submittedAt,
      last_activity_at: submittedAt,
    })
    .execute();
  return requestNumber;
}
