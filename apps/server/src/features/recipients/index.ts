// What other features use of recipients.
export * as recipientsRepository from './repository.js';
export { findRecipient } from './repository.js';
export { RECIPIENT_TAGS } from './service.js';
