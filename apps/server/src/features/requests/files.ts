import type { DbOrTrx } from '../../db/database.js';
import { registerFileOwner } from '../../files/access.js';
import type { FileKind } from '../../files/content.js';
import { attachFile, type FilesContext } from '../../files/service.js';
import type { Actor } from '../auth/actor.js';
import { findRequestFileUse } from '../results/repository.js';
import { canViewRequest, isRequestStaff } from './policy.js';
import { findRequest } from './repository.js';

// Every file of a request (the applicant's authority, content files, correspondence attachments,
// results, invoices, remittance advice) is owned by the request, keyed by its number: whoever may
// see the request may read them, except that the sender side (submitters, external users) may not
// read invoices and remittance advice (staff business) nor the file of a result that has not
// reached it (awaiting QA or discarded), even when it came as a correspondence attachment.

export const REQUEST_FILE_OWNER = 'request';

registerFileOwner(REQUEST_FILE_OWNER, async (db, actor, requestNumber, file) => {
  const row = await findRequest(db, requestNumber);
  if (!row || !canViewRequest(actor, row)) return false;
  if (isRequestStaff(actor, row)) return true;
  if (file.classification === 'remittanceAdvice') return false;
  const use = await findRequestFileUse(db, requestNumber, file.key);
  return !use.invoice && (!use.result || use.deliveredResult);
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
  kind?: FileKind,
): Promise<void> {
  return attachFile(
    files,
    db,
    actor,
    key,
    { type: REQUEST_FILE_OWNER, id: requestNumber, classification },
    field,
    kind,
  );
}

/** The kind of file a field of a request takes: the applicant's forms, or a document. */
export function requestFieldKind(field: string): FileKind {
  return /(^|\.)(authority|application)$/.test(field) ? 'authority' : 'document';
}
