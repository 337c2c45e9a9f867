import { payloadString, type WorkflowRule } from '../rule.js';
import { addWorkflowTask } from '../tasks.js';

// Re-opened -> a task for the work the request is back at (issue 22: closing completed every task,
// so a re-opened request was on nobody's list). Not issued yet: issueRequest, as on submission.
// Issued: followUp, as after issuing: chase what the re-open was for. The task carries the re-open
// notice and is assigned like any workflow task (features/assignment); each re-open adds its own.

export const workOnReOpened: WorkflowRule = {
  name: 'workOnReOpened',
  on: ['request.reOpened'],
  addsTasks: true,
  async handle({ trx, deps, event, request }) {
    if (request.status === 'closed') return;
    const type = request.issued_at === null ? 'issueRequest' : 'followUp';
    const notice = payloadString(event, 'notice');
    await addWorkflowTask(trx, deps, {
      type,
      request,
      key: `${type}:${request.request_number}:reOpened:${event.id}`,
      triggeredAt: event.createdAt,
      triggeredBy: event.actor,
      ...(notice ? { notice: `Re-opened: ${notice}` } : {}),
    });
  },
};
