import type { WorkflowRule } from '../rule.js';
import { addWorkflowTask } from '../tasks.js';

// Submitted -> an issueRequest task: someone has to send the request to its recipient. A request
// already issued by the time the event is handled needs none.

export const issueRequestOnSubmitted: WorkflowRule = {
  name: 'issueRequestOnSubmitted',
  on: ['request.submitted'],
  addsTasks: true,
  async handle({ trx, deps, event, request }) {
    if (request.status !== 'submitted' || request.issued_at !== null) return;
    await addWorkflowTask(trx, deps, {
      type: 'issueRequest',
      request,
      key: `issueRequest:${request.request_number}`,
      triggeredAt: event.createdAt,
      triggeredBy: event.actor,
    });
  },
};
