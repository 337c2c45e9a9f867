import type { DbOrTrx } from '../../db/database.js';
import { registerFileOwner } from '../../files/access.js';
import type { FileKind } from '../../files/content.js';
import { attachFile, type FilesContext } from '../../files/service.js';
import type { Actor } from '../auth/index.js';
import { findRequestFileUse, type RequestFileUse } from './fileUseRepository.js';
import { canViewRequest, isRequestStaff } from './policy.js';
import { findRequest } from './repository.js';

// Every file of a request (the applicant's authority, content files, correspondence attachments,
// results, invoices, remittance advice) is owned by the request, keyed by its number. Staff of the
// request read them all. The sender side (submitters, external users) reads a file when any of its
// uses grants it, whatever was written last (one file can be a message's attachment, a result and an
// invoice at once): see senderMayRead. Discarding one use never takes away what another grants.

export const REQUEST_FILE_OWNER = 'request';

/**
 * Whether the sender side may read a request file, from all its uses. Granting: a delivered result
 * (QA done or skipped, not discarded), an attachment of the issued request (the letter, the
 * authority sent with it), an attachment of correspondence the sender sees, and the request's own
 * files (the applicant's authority and application, content files: no other use). An invoice or
 * remittance advice use grants nothing, nor does a result awaiting QA or discarded. A result
 * awaiting QA holds back a message's or note's attachment until QA: results reach the sender only
 * after QA, even when they came by mail.
 */
export function senderMayRead(use: RequestFileUse): boolean {
  if (use.deliveredResult || use.issuedRequest) return true;
  if (use.resultAwaitingQa) return false;
  if (use.attachmentSenderSees) return true;
  return !use.attachment && !use.result && !use.invoice;
}

registerFileOwner(REQUEST_FILE_OWNER, async (db, actor, requestNumber, file) => {
  const row = await findRequest(db, requestNumber);
  if (!row || !canViewRequest(actor, row)) return false;
  if (isRequestStaff(actor, row)) return true;
  return senderMayRead(await findRequestFileUse(db, requestNumber, file.key));
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
