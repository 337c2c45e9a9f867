import { payloadString, type WorkflowRule } from '../rule.js';
import { completeOpenTasks } from '../tasks.js';

// Result quality assured (or discarded: nothing left to assure) -> its qualityAssureResult task is
// complete, by whoever did it. Delivery to the sender and auto-close are done by the QA action.

export const completeQualityAssureOnResultDone: WorkflowRule = {
  name: 'completeQualityAssureOnResultDone',
  on: ['request.resultQualityAssured', 'request.resultDiscarded'],
  addsTasks: false,
  async handle({ trx, deps, event, request }) {
    const resultId = payloadString(event, 'resultId');
    if (!resultId) return;
    await completeOpenTasks(
      trx,
      deps,
      request.request_number,
      { workflowKey: `qualityAssureResult:result:${resultId}` },
      event.actor,
      event.createdAt,
    );
  },
};
