import { REQUEST_TAGS, type RequestResultView } from '@dossier/core';
import { offeredActionNames } from '../../http/actions.js';
import type { AppDeps } from '../../http/deps.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { loadVisibleRequest } from '../requests/index.js';
import { requestItemTypes, resultActions } from './actions.js';
import { canViewResult, toResultItem } from './list.js';
import { findResult } from './repository.js';

/**
 * The result page (GET /requests/{n}/results/{resultId}): staff of the request see every result,
 * the sender side only those that reached it (403 for the others).
 */
export async function getResultView(
  deps: AppDeps,
  actor: Actor,
  requestNumber: string,
  resultId: string,
): Promise<RequestResultView> {
  const request = await loadVisibleRequest(deps.db, actor, requestNumber);
  const row = await findResult(deps.db, request.request_number, resultId);
  if (!row) throw notFound('No such result.');
  if (!(await canViewResult(deps.db, actor, request, row))) throw forbidden();
  return {
    $type: 'requestResult',
    title: `Result of request ${request.request_number}`,
    requestNumber: request.request_number,
    applicantName: request.applicant_name,
    result: toResultItem(row, request),
    requestItemTypes: requestItemTypes(request),
    tagDefinitions: [...REQUEST_TAGS.result],
    actions: await offeredActionNames(resultActions, { deps, actor, request, item: row }),
  };
}
