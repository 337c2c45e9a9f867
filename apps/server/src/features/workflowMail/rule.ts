import type { WorkflowRule } from '../workflow/rule.js';
import { sendWorkflowMail } from './service.js';

// The workflow mails as a rule of the workflow engine: the engine hands it each request event after
// commit, in the transaction that marks the event done, so each mail is queued exactly once.

export const sendWorkflowMailRule: WorkflowRule = {
  name: 'sendWorkflowMail',
  on: [
    'request.closed',
    'request.reOpened',
    'request.resultQualityAssured',
    'request.resultDiscarded',
    'request.taskAdded',
    'task.triggered',
    'task.completed',
  ],
  addsTasks: false,
  async handle({ trx, event }) {
    await sendWorkflowMail(
      trx,
      {},
      { type: event.type, aggregate_id: event.requestNumber, payload: event.payload },
    );
  },
};
