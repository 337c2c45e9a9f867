import { payloadString, type WorkflowRule } from '../rule.js';
import { addWorkflowTask } from '../tasks.js';

// The mail of an issued request failed for good (a 5xx answer, or every retry used) -> an
// exception task on the request: someone has to issue it another way or fix the address.

export const exceptionOnMailFailed: WorkflowRule = {
  name: 'exceptionOnMailFailed',
  on: ['request.mailDeliveryFailed'],
  addsTasks: true,
  async handle({ trx, deps, event, request }) {
    const outboxId = payloadString(event, 'mailOutboxId') ?? event.id;
    const error = payloadString(event, 'error');
    await addWorkflowTask(trx, deps, {
      type: 'exception',
      request,
      key: `exception:mail:${outboxId}`,
      triggeredAt: event.createdAt,
      triggeredBy: null,
      notice: `The issued request could not be delivered to ${payloadString(event, 'to') ?? 'the recipient'}${error ? ` (${error})` : ''}. Check the address and issue the request again.`,
    });
  },
};
