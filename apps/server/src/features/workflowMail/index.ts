// What other features use of workflowMail.
export { sendActivationMail } from './activation.js';
export { OPTIONS } from './render.js';
export { sendWorkflowMail } from './service.js';
export { notifyTaskAdded } from './taskAddedNotification.js';
