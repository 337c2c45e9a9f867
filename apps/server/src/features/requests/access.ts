import { REQUEST_NUMBER_PATTERN } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { canViewRequest } from './policy.js';
import { findRequest, type RequestRow } from './repository.js';

/**
 * The request the actor asks for: 404 when there is no such request, 403 when it exists in a scope
 * the actor may not see (the message says nothing about it). `forUpdate` locks the row for an action.
 */
export async function loadVisibleRequest(
  db: DbOrTrx,
  actor: Actor,
  requestNumber: string,
  options: { forUpdate?: boolean } = {},
): Promise<RequestRow> {
  if (!REQUEST_NUMBER_PATTERN.test(requestNumber)) throw notFound('No such request.');
  const row = await findRequest(db, requestNumber, options);
  if (!row) throw notFound('No such request.');
  if (!canViewRequest(actor, row)) throw forbidden();
  return row;
}
