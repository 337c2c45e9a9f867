import type { AdminUserView } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Db } from '../../db/database.js';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { mayActOnScope, mayManageUser } from './policy.js';
import * as repo from './repository.js';
import { getUserView } from './service.js';

// The link between an account and single sign-on (its external user id): the admin page shows it
// and who or what set it (an administrator, or a SCIM client as scim:<configuration>/<entry>), and
// an administrator may undo it. A provisioning client that sends the id again links it again: the
// provider is where the person's accounts are decided.

export async function unlinkSingleSignOn(db: Db, actor: Actor, userId: string): Promise<AdminUserView> {
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
    await recordEvent(trx, {
      type: 'ssoUnlinked',
      aggregateType: 'user',
      aggregateId: userId,
      actor: actor.id,
      payload: {
        changes: {
          externalUserId: { from: row.external_user_id, to: null },
          externalUserIdSetBy: { from: row.external_id_set_by, to: null },
        },
      },
    });
    return getUserView(trx, actor, userId);
  });
}
