// What other features use of webhooks.
export { publishRequestWebhook } from './requestWebhook.js';
export { publishWebhookEvent } from './service.js';
