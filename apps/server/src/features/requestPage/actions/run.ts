import { type ActionOutcome, commitAction } from '../../../http/actions.js';
import type { AppDeps } from '../../../http/deps.js';
import type { Actor } from '../../auth/index.js';
import { loadVisibleRequest } from '../../requests/index.js';
import { requestActions } from './index.js';

/**
 * Commits one request action: the request row is locked FOR UPDATE for the whole transaction, so
 * two people closing or paying at once run one after the other and the second meets the new state
 * (409). Answers what the action made (its ids).
 */
export function runRequestAction(
  deps: AppDeps,
  actor: Actor,
  requestNumber: string,
  name: string,
  body: unknown,
): Promise<ActionOutcome> {
  return commitAction(deps.db, requestActions, name, body, async (trx) => ({
    deps,
    actor,
    request: await loadVisibleRequest(trx, actor, requestNumber, { forUpdate: true }),
  }));
}
