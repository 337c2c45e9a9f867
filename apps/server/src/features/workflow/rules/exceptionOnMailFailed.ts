import { hasOpenMailException } from '../repository.js';
import { payloadString, type WorkflowRule } from '../rule.js';
import { addWorkflowTask } from '../tasks.js';

// A mail about the request failed for good (a 5xx answer, or every retry used) -> an exception task
// on the request: someone has to reach the addressee another way or fix the address. Any mail about
// a request counts: the issued request, an autoReminder, a result delivery, a workflow mail; also on
// a closed request (its requestClosed mail may be the one that failed).
//
// While one such exception is open, later failures add none (each is in the request's history):
// a workflow mail about the exception task itself could otherwise fail and raise the next one.

export const exceptionOnMailFailed: WorkflowRule = {
  name: 'exceptionOnMailFailed',
  on: ['request.mailDeliveryFailed'],
  addsTasks: true,
  async handle({ trx, deps, event, request }) {
    if (await hasOpenMailException(trx, request.request_number)) return;
    const outboxId = payloadString(event, 'mailOutboxId') ?? event.id;
    const error = payloadString(event, 'error');
    const to = payloadString(event, 'to') ?? 'the addressee';
    const because = error ? ` (${error})` : '';
    const notice =
      event.payload.kind === 'issuedRequest'
        ? `The issued request could not be delivered to ${to}${because}. Check the address and issue the request again.`
        : `The mail "${payloadString(event, 'subject') ?? ''}" could not be delivered to ${to}${because}. Check the address and let them know another way.`;
    await addWorkflowTask(trx, deps, {
      type: 'exception',
      request,
      key: `exception:mail:${outboxId}`,
      triggeredAt: event.createdAt,
      triggeredBy: null,
      notice,
    });
  },
};
