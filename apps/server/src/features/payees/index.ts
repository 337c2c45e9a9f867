// What other features use of payees.
export { changePayeeFromRecipient } from './recipientChange.js';
export { findPayee } from './repository.js';
export { createPayee, getPayeeView, searchPayees, updatePayee } from './service.js';
