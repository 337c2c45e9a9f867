import type { WorkflowRule } from '../rule.js';
import { addWorkflowTask } from '../tasks.js';

// Issued -> a followUp task (chase the recipient if nothing comes back), and for fax and post a
// confirmIssuedRequest task (nobody learns automatically that a fax or letter arrived). The issue
// action itself completed the open issueRequest tasks (and pushed that to their assignees).

const CONFIRMED_METHODS = new Set(['faxNumber', 'postal']);

export const followUpOnIssued: WorkflowRule = {
  name: 'followUpOnIssued',
  on: ['request.issued'],
  addsTasks: true,
  async handle({ trx, deps, event, request }) {
    const n = request.request_number;
    if (request.status === 'closed') return;
    const common = { request, triggeredAt: event.createdAt, triggeredBy: event.actor };
    await addWorkflowTask(trx, deps, { ...common, type: 'followUp', key: `followUp:${n}:${event.id}` });
    if (request.issue_method && CONFIRMED_METHODS.has(request.issue_method))
      await addWorkflowTask(trx, deps, {
        ...common,
        type: 'confirmIssuedRequest',
        key: `confirmIssuedRequest:${n}:${event.id}`,
      });
  },
};
