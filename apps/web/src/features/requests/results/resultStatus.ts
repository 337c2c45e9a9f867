import type { ResultItem } from '@dossier/core';

export type ResultStatus = 'discarded' | 'downloaded' | 'qaDone' | 'qaSkipped' | 'awaitingQa';

/** The badge of a result, by display priority: discarded, downloaded, QA Done. */
export function resultStatus(result: ResultItem): ResultStatus {
  if (result.discardedAt) return 'discarded';
  if (result.downloadedAt) return 'downloaded';
  if (result.qualityAssuredAt && !result.qualityAssuranceSkipped) return 'qaDone';
  if (result.qualityAssuranceSkipped) return 'qaSkipped';
  return 'awaitingQa';
}

export const RESULT_STATUS_COLORS: Record<ResultStatus, string> = {
  discarded: 'red',
  downloaded: 'blue',
  qaDone: 'green',
  qaSkipped: 'gray',
  awaitingQa: 'yellow',
};
