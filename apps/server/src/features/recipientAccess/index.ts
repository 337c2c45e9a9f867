// What other features use of the recipient's accesses (issue 34): made when a request is issued,
// shown, revoked and re-sent on the request page.
export { createRecipientAccess, type NewAccess } from './access.js';
export { fillAccessPlaceholders } from './letterText.js';
export { setAccessCorrespondence } from './repository.js';
export {
  listAccessItems,
  mailPasscode,
  recordAccessSent,
  resendRecipientAccess,
  revokeRecipientAccess,
} from './staff.js';
