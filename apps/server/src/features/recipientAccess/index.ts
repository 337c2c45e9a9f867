// What other features use of the recipient's accesses (issue 34): made when a request is issued,
// shown, revoked and re-sent on the request page, printed again in the reminders to the recipient.
export { createRecipientAccess, type NewAccess, type RecipientLinkConfig } from './access.js';
export { fillAccessPlaceholders } from './letterText.js';
export { type ReminderLinkUse, reminderLinkOf } from './reminder.js';
export { setAccessCorrespondence } from './repository.js';
export {
  listAccessItems,
  mailPasscode,
  recordAccessSent,
  resendRecipientAccess,
  revokeRecipientAccess,
} from './staff.js';
