// What other features use of notifications.
export { createNotification } from './service.js';
