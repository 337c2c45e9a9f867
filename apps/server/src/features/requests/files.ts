import type { DbOrTrx } from '../../db/database.js';
import { registerFileOwner } from '../../files/access.js';
import { attachFile, type FilesContext } from '../../files/service.js';
import type { Actor } from '../auth/actor.js';
import { canViewRequest } from './policy.js';
import { findRequest } from './repository.js';

// Every file of a request (the applicant's authority, content files, correspondence attachments,
// results, invoices, remittance advice) is owned by the request, keyed by its number: whoever may
// see the request may read them, and nobody else learns they exist (404).

export const REQUEST_FILE_OWNER = 'request';

registerFileOwner(REQUEST_FILE_OWNER, async (db, actor, requestNumber) => {
  const row = await findRequest(db, requestNumber);
  return row !== undefined && canViewRequest(actor, row);
});

/**
 * Gives an uploaded file (or one already on this request, such as a correspondence attachment) to
 * the request; a field error names `field` when it will not do.
 */
export function attachRequestFile(
  files: FilesContext,
  db: DbOrTrx,
  actor: Actor,
  requestNumber: string,
  key: string,
  field: string,
  classification?: string | null,
): Promise<void> {
  return attachFile(
    files,
    db,
    actor,
    key,
    { type: REQUEST_FILE_OWNER, id: requestNumber, classification },
    field,
  );
}
