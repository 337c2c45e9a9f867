import { findResultState } from '../repository.js';
import { payloadString, type WorkflowRule } from '../rule.js';
import { addWorkflowTask } from '../tasks.js';

// Result added -> a qualityAssureResult task for that result, unless quality assurance is skipped
// (request settings disableResultQualityAssurance, recorded on the result when it was added).

export const qualityAssureOnResultAdded: WorkflowRule = {
  name: 'qualityAssureOnResultAdded',
  on: ['request.resultAdded'],
  addsTasks: true,
  async handle({ trx, deps, event, request, settings }) {
    const resultId = payloadString(event, 'resultId');
    if (!resultId || settings?.disableResultQualityAssurance) return;
    const result = await findResultState(trx, resultId);
    if (!result || result.quality_assurance_skipped || result.quality_assured_at || result.discarded_at)
      return;
    await addWorkflowTask(trx, deps, {
      type: 'qualityAssureResult',
      request,
      key: `qualityAssureResult:result:${resultId}`,
      triggeredAt: event.createdAt,
      triggeredBy: event.actor,
    });
  },
};
