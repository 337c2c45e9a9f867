import { pushTask } from '../../tasks/service.js';
import { listCompletedAssigned } from '../repository.js';
import type { WorkflowRule } from '../rule.js';
import { addWorkflowTask } from '../tasks.js';

// Issued -> a followUp task (chase the recipient if nothing comes back), and for fax and post a
// confirmIssuedRequest task (nobody learns automatically that a fax or letter arrived). The issue
// action itself completed the open issueRequest tasks; their assignees' lists drop them here.

const CONFIRMED_METHODS = new Set(['faxNumber', 'postal']);

export const followUpOnIssued: WorkflowRule = {
  name: 'followUpOnIssued',
  on: ['request.issued'],
  addsTasks: true,
  async handle({ trx, deps, event, request }) {
    const n = request.request_number;
    if (deps.live)
      for (const row of await listCompletedAssigned(trx, n, ['issueRequest'], event.createdAt))
        await pushTask(trx, deps.live, row, null);
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
