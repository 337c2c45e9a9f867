import type { AdminUserView } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Db } from '../../db/database.js';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import type { LiveHub } from '../../live/hub.js';
import { type Actor, endUserSessions } from '../auth/index.js';
import { mayActOnScope, mayManageUser } from './policy.js';
import * as repo from './repository.js';
import { getUserView } from './service.js';

// The link between an account and single sign-on (its external user id): the admin page shows it
// and who or what set it (an administrator, or a SCIM client as scim:<configuration>/<entry>), and
// an administrator may undo it. A provisioning client that sends the id again links it again: the
// provider is where the person's accounts are decided.
//
// An unlink holds: whoever is signed in as the user is signed out everywhere, and the subject may not
// link itself again by verified email at its next sign-in (sso_unlinked_subjects), only an
// administrator's link (a provisioning client) gives it back.

export const UNLINK_SUMMARY =
  'Unlinked from single sign-on: signed out everywhere; the identity provider no longer signs it in until an administrator links it again.';

export async function unlinkSingleSignOn(
  db: Db,
  actor: Actor,
  userId: string,
  live?: LiveHub,
): Promise<AdminUserView> {
  const existing = await repo.findUser(db, userId);
  if (!existing || !mayActOnScope(actor, 'user:view', existing.scope)) throw notFound('No such user.');
  if (!mayActOnScope(actor, 'user:edit', existing.scope)) throw forbidden('You may not change this user.');
  if (!mayManageUser(actor, { scope: existing.scope, roles: await repo.findRoles(db, userId) }))
    throw forbidden(
      'This user holds roles outside your scopes: only an administrator of those scopes may change it.',
    );
  return db.transaction().execute(async (trx) => {
    const row = await repo.findUser(trx, userId, true);
    if (!row?.external_user_id) throw conflict('This user is not linked to single sign-on.');
    await repo.clearExternalUserId(trx, userId);
    await repo.rememberUnlinkedSubject(trx, row.external_user_id, userId, actor.id);
    await endUserSessions(trx, live, userId);
    await recordEvent(trx, {
      type: 'ssoUnlinked',
      aggregateType: 'user',
      aggregateId: userId,
      actor: actor.id,
      payload: {
        summary: UNLINK_SUMMARY,
        changes: {
          externalUserId: { from: row.external_user_id, to: null },
          externalUserIdSetBy: { from: row.external_id_set_by, to: null },
        },
      },
    });
    return getUserView(trx, actor, userId);
  });
}
