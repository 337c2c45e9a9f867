import type { DbOrTrx } from '../../db/database.js';
import type { FilesContext } from '../../files/service.js';
import { badRequest } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { attachRequestFile } from '../requests/index.js';
import { classifyRequestFile, findFileOwner, isCorrespondenceAttachment } from './repository.js';

// The file of a new result or invoice (request actions): either a fresh upload, which the
// request takes over now, or an attachment of the request's correspondence that is not blocked.
// Anything else (the authority, another request's file, someone else's upload) is refused.

export type ResultOrInvoice = 'result' | 'invoice';

export async function takeRequestFile(
  files: FilesContext,
  trx: DbOrTrx,
  actor: Actor,
  requestNumber: string,
  key: string,
  kind: ResultOrInvoice,
): Promise<void> {
  const owner = await findFileOwner(trx, key);
  if (owner?.owner_type === 'request' && owner.owner_id === requestNumber) {
    if (!(await isCorrespondenceAttachment(trx, requestNumber, key)))
      throw badRequest('Choose an upload or an attachment of the correspondence.', {
        file: 'Choose an upload or an attachment of the correspondence.',
      });
    await classifyRequestFile(trx, key, kind);
    return;
  }
  await attachRequestFile(files, trx, actor, requestNumber, key, 'file', kind, 'document');
}
