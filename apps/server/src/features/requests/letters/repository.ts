import type { IssueRequestMethod } from '@dossier/core';
import type { DbOrTrx } from '../../../db/database.js';

// SQL of issuing a request: the request row's issue fields and the stored files sent along.

export async function markRequestIssued(
  trx: DbOrTrx,
  requestNumber: string,
  method: IssueRequestMethod,
  at: Date,
): Promise<void> {
  await trx
    .updateTable('requests')
    .set({ status: 'open', issued_at: at, issue_method: method })
    .where('request_number', '=', requestNumber)
    .execute();
}

/** A stored, uploaded file of the request (the applicant's authority), for attaching to mail. */
export function findRequestFile(db: DbOrTrx, requestNumber: string, key: string) {
  return db
    .selectFrom('files')
    .select(['key', 'name', 'content_type'])
    .where('key', '=', key)
    .where('owner_type', '=', 'request')
    .where('owner_id', '=', requestNumber)
    .where('uploaded_at', 'is not', null)
    .executeTakeFirst();
}

export async function findUserName(db: DbOrTrx, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst();
  return row?.name;
}
