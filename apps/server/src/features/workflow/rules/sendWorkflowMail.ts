import { sendWorkflowMail } from '../../workflowMail/index.js';
import type { WorkflowRule } from '../rule.js';

// The workflow mails as a rule of the workflow engine: the engine hands it each request event after
// commit, in the transaction that marks the event done, so each mail is queued exactly once. Tasks
// added or completed by anyone (a person, a rule, the fallback) write request.taskAdded and
// request.taskCompleted (tasks/taskEvents.ts), so every task's mail goes out.

export const sendWorkflowMailRule: WorkflowRule = {
  name: 'sendWorkflowMail',
  on: [
    'request.closed',
    'request.reOpened',
    'request.resultAdded',
    'request.resultQualityAssured',
    'request.resultDiscarded',
    'request.taskAdded',
    'request.taskCompleted',
  ],
  addsTasks: false,
  async handle({ trx, deps, event }) {
    await sendWorkflowMail(
      trx,
      { config: deps.config },
      { type: event.type, aggregate_id: event.requestNumber, payload: event.payload },
    );
  },
};
