import { fieldErrorsOf } from '@dossier/core';
import type { AppDeps } from '../../../app.js';
import { conflict, fieldsInvalid, forbidden, notFound } from '../../../http/errors.js';
import type { Actor } from '../../auth/actor.js';
import { loadVisibleRequest } from '../access.js';
import { findRequestAction } from './registry.js';

/**
 * Commits one request action: the request row is locked, the offer re-checked under the lock (so two
 * people closing or paying at once cannot both succeed), the body validated, and the action run, all
 * in one transaction. Field errors come back as 400 with a message per field.
 */
export async function runRequestAction(
  deps: AppDeps,
  actor: Actor,
  requestNumber: string,
  name: string,
  body: unknown,
): Promise<unknown> {
  const action = findRequestAction(name);
  if (!action) throw notFound('No such action.');
  return deps.db.transaction().execute(async (trx) => {
    const request = await loadVisibleRequest(trx, actor, requestNumber, { forUpdate: true });
    const ctx = { deps, actor, request };
    const offer = await action.offer(ctx);
    if (offer === 'forbidden') throw forbidden();
    if (offer !== 'offered') throw conflict(offer.conflict);
    const parsed = action.body.safeParse(body ?? {});
    if (!parsed.success) throw fieldsInvalid(fieldErrorsOf(parsed.error.issues));
    return action.run(trx, ctx, parsed.data);
  });
}
