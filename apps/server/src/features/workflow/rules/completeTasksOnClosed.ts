import type { WorkflowRule } from '../rule.js';
import { completeOpenTasks } from '../tasks.js';

// Request closed -> every open task of the request is complete, by whoever closed it. A closed
// request offers no action any task could lead to (issue, QA, pay, note), so an open task would only
// sit in someone's list. Re-opening does not bring them back; it adds one task for the work the
// request is back at (workOnReOpened).

export const completeTasksOnClosed: WorkflowRule = {
  name: 'completeTasksOnClosed',
  on: ['request.closed'],
  addsTasks: false,
  async handle({ trx, deps, event, request }) {
    if (request.status !== 'closed') return;
    await completeOpenTasks(trx, deps, request.request_number, {}, event.actor, event.createdAt);
  },
};
