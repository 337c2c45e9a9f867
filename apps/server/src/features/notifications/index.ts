// What other features use of notifications.
export { createNotification, notifySubmitters } from './service.js';
