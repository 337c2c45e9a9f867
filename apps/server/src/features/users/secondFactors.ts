import type { Db } from '../../db/database.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { LiveHub } from '../../live/hub.js';
import { enqueueMail, escapeHtml } from '../../mail/outbox.js';
import { type Actor, resetSecondFactors } from '../auth/index.js';
import { mayActOnScope, mayManageUser, WIDER_ROLES } from './policy.js';
import * as repo from './repository.js';

/**
 * An administrator resets a user's second factors (issue 35), for a user who lost theirs: every
 * code generator and recovery code goes, the user's sessions end, the history records it and the
 * user is told by mail (so a reset the user did not ask for does not go unnoticed).
 */
export async function resetUserSecondFactors(
  db: Db,
  actor: Actor,
  userId: string,
  live: LiveHub | undefined,
): Promise<{ ok: true }> {
  return db.transaction().execute(async (trx) => {
    const row = await repo.findUser(trx, userId, true);
    if (!row || !mayActOnScope(actor, 'user:view', row.scope)) throw notFound('No such user.');
    if (!mayActOnScope(actor, 'user:edit', row.scope)) throw forbidden('You may not change this user.');
    if (!mayManageUser(actor, { scope: row.scope, roles: await repo.findRoles(trx, userId) }))
      throw forbidden(WIDER_ROLES);
    await resetSecondFactors(trx, live, userId, actor.id);
    if (row.email) {
      await enqueueMail(trx, {
        to: row.email,
        scope: row.scope,
        subject: 'Your second factors were reset',
        text: `Hello ${row.name},\n\nan administrator (${actor.name}) reset the second factors of your account ${row.id}: your code generators and recovery codes no longer work, and you were signed out everywhere.\n\nSign in with your password and add a code generator again on your account page. If you did not ask for this, tell your administrator.`,
        html: `<p>Hello ${escapeHtml(row.name)},</p><p>an administrator (${escapeHtml(actor.name)}) reset the second factors of your account <b>${escapeHtml(row.id)}</b>: your code generators and recovery codes no longer work, and you were signed out everywhere.</p><p>Sign in with your password and add a code generator again on your account page. If you did not ask for this, tell your administrator.</p>`,
      });
    }
    return { ok: true as const };
  });
}
