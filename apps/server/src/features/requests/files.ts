import { senderMayReadFile } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { registerAccessLoggedOwner, registerFileOwner } from '../../files/access.js';
import type { FileKind } from '../../files/content.js';
import { attachFile, type FilesContext } from '../../files/service.js';
import type { Actor } from '../auth/index.js';
import { fileOfRequest, findFileUses, findRequestFileUses } from './fileUseRepository.js';
import { canViewRequest, isRequestStaff, type RequestAccessRow } from './policy.js';
import { findRequest, type RequestRow } from './repository.js';

// Every file of a request (the applicant's authority, content files, correspondence attachments,
// results, invoices, remittance advice) is owned by the request, keyed by its number. Staff of the
// request read them all. The sender side (submitters, external users) reads a file as the one rule
// in @dossier/core says (senderMayReadFile, from every use of the file: one file can be a message's
// attachment, a result and an invoice at once): a use that denies wins over one that grants. The
// files route, the public API and every list that offers a file to the sender side ask here.

export const REQUEST_FILE_OWNER = 'request';

/**
 * Of `keys` (files of the request), those the actor may read: all of them for staff of the request,
 * for the sender side those senderMayReadFile allows. The caller has checked the actor may view
 * the request.
 */
export async function readableRequestFiles(
  db: DbOrTrx,
  actor: Actor,
  row: RequestRow,
  keys: readonly string[],
): Promise<Set<string>> {
  if (isRequestStaff(actor, row) || keys.length === 0) return new Set(keys);
  const uses = await findRequestFileUses(db, row.request_number, keys);
  return new Set(
    keys.filter((key) => {
      const use = uses.get(key);
      return use !== undefined && senderMayReadFile(use);
    }),
  );
}

/**
 * The same over files of several requests (a list across requests, such as Download Files): of
 * `files`, those the actor may read, by fileOfRequest(request number, key). The caller has checked
 * that the actor may view each request.
 */
export async function readableFilesOfRequests(
  db: DbOrTrx,
  actor: Actor,
  files: readonly { request: RequestAccessRow & { request_number: string }; key: string }[],
): Promise<Set<string>> {
  const readable = new Set<string>();
  const senderSide: { requestNumber: string; key: string }[] = [];
  for (const { request, key } of files)
    if (isRequestStaff(actor, request)) readable.add(fileOfRequest(request.request_number, key));
    else senderSide.push({ requestNumber: request.request_number, key });
  const uses = await findFileUses(db, senderSide);
  for (const [file, use] of uses) if (senderMayReadFile(use)) readable.add(file);
  return readable;
}

registerFileOwner(REQUEST_FILE_OWNER, async (db, actor, requestNumber, file) => {
  const row = await findRequest(db, requestNumber);
  if (!row || !canViewRequest(actor, row)) return false;
  return (await readableRequestFiles(db, actor, row, [file.key])).has(file.key);
});
registerAccessLoggedOwner(REQUEST_FILE_OWNER, (requestNumber) => requestNumber);

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
