import type { DbOrTrx } from '../../db/database.js';
import { registerFileOwner } from '../../files/access.js';
import { claimFile, type FilesContext } from '../../files/service.js';
import { badRequest } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { hasPermission } from '../auth/index.js';

// A recipient's attachments (a consent form, a fee schedule …) belong to the recipient: whoever may
// see recipients may read them.

export const RECIPIENT_FILE_OWNER = 'recipient';

registerFileOwner(RECIPIENT_FILE_OWNER, async (_db, actor) => hasPermission(actor, 'recipient:view'));

/** Gives newly uploaded attachments to the recipient; a field error names the first that fails. */
export async function attachRecipientFiles(
  files: FilesContext,
  db: DbOrTrx,
  actor: Actor,
  recipientId: string,
  attachments: { key: string }[],
): Promise<void> {
  for (const [index, attachment] of attachments.entries()) {
    const problem = await claimFile(files, db, actor, attachment.key, {
      type: RECIPIENT_FILE_OWNER,
      id: recipientId,
    });
    if (problem) throw badRequest(problem, { [`attachments.${index}`]: problem, attachments: problem });
  }
}
