import { registerFileOwner } from '../../files/access.js';
import { hasPermission } from '../auth/index.js';
import { canViewRequest, findRequest } from '../requests/index.js';
import { findInboxMessage, wasLinkedTo } from './repository.js';
import { mayWorkMessage } from './service.js';

// Files of an incoming message (its raw message and its attachments) belong to the message: whoever
// works the inbox at the message's scope may read them, and so may whoever may see a request the message was linked to.
// Blocked attachments have an owner type nobody is registered for, so no one reads them through the
// app (they stay in storage, and in the raw message, for the record).

export const INBOX_FILE_OWNER = 'inboxMessage';
export const INBOX_BLOCKED_FILE_OWNER = 'inboxMessageBlocked';

registerFileOwner(INBOX_FILE_OWNER, async (db, actor, messageId) => {
  if (hasPermission(actor, 'inbox')) {
    const message = await findInboxMessage(db, messageId);
    if (message && mayWorkMessage(actor, message.scope)) return true;
  }
  for (const n of await wasLinkedTo(db, messageId)) {
    const request = await findRequest(db, n);
    if (request && canViewRequest(actor, request)) return true;
  }
  return false;
});
