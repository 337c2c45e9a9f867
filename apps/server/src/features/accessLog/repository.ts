import { ACCESS_PAGE_SIZE } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';

// The access log of one request, newest first: read through access_log_request_idx
// (request_number, at desc) on each month's partition, merged by time.

export async function listRequestAccess(db: DbOrTrx, requestNumber: string, pageOffset: number) {
  return db
    .selectFrom('access_log as a')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('files as f', 'f.key', 'a.file_key')
    .select([
      'a.id',
      'a.at',
      'a.user_id',
      'a.api_client',
      'a.recipient_access_id',
      'a.what',
      'a.via',
      'a.file_key',
      'a.address',
      'u.name as user_name',
      'f.name as file_name',
    ])
    .where('a.request_number', '=', requestNumber)
    .orderBy('a.at', 'desc')
    .orderBy('a.id', 'desc')
    .offset(pageOffset)
    .limit(ACCESS_PAGE_SIZE + 1)
    .execute();
}
