import { recordEvent } from '../../audit/events.js';
import type { Db } from '../../db/database.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { mayActOnScope, mayManageUser, WIDER_ROLES } from './policy.js';
import * as repo from './repository.js';

/**
 * Clear Lockout acts at once (issue 24): the user may sign in again before the lock ends, without
 * the administrator having to save the form. The lock is not form data, so the user's version
 * stays: a form opened before still saves.
 */
export async function clearLockout(db: Db, actor: Actor, userId: string): Promise<{ cleared: boolean }> {
  return db.transaction().execute(async (trx) => {
    const row = await repo.findUser(trx, userId, true);
    if (!row || !mayActOnScope(actor, 'user:view', row.scope)) throw notFound('No such user.');
    if (!mayActOnScope(actor, 'user:edit', row.scope)) throw forbidden('You may not change this user.');
    if (!mayManageUser(actor, { scope: row.scope, roles: await repo.findRoles(trx, userId) }))
      throw forbidden(WIDER_ROLES);
    const lockedUntil = row.locked_until;
    await repo.clearSigninLock(trx, userId);
    if (lockedUntil === null) return { cleared: false };
    await recordEvent(trx, {
      type: 'userUpdated',
      aggregateType: 'user',
      aggregateId: userId,
      actor: actor.id,
      payload: { changes: { lockedUntil: { from: lockedUntil, to: null } } },
    });
    return { cleared: true };
  });
}
