// What other features use of workflowMail.
export { sendActivationMail } from './activation.js';
export { sendWorkflowMail } from './service.js';
export { notifyTaskAdded } from './taskAddedNotification.js';
