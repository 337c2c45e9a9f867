import {
  type AdminUserView,
  CONTROL_CHARACTER_MESSAGE,
  formatRoleString,
  hasControlCharacter,
  type RoleClaimDecided,
} from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Db } from '../../db/database.js';
import { badRequest, forbidden, notFound } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { listClaimsInScopes, takeClaim } from './claimRepository.js';
import { mayActOnScope, userScopes } from './policy.js';
import * as repo from './repository.js';
import { getUserView } from './service.js';

// An administrator decides on an external role a user claimed for itself: approved, it becomes a
// role of the user; refused, it is gone. Only an administrator whose user:edit scope covers the
// claimed scope may decide, and each decision is in the user's history.

export type ClaimDecision = 'approve' | 'refuse';

export async function decideClaim(
  db: Db,
  actor: Actor,
  userId: string,
  claimId: string,
  decision: ClaimDecision,
  newcomerScope: string,
): Promise<RoleClaimDecided | AdminUserView> {
  await db.transaction().execute(async (trx) => {
    const claim = await takeClaim(trx, userId, claimId);
    if (!claim) throw notFound('This role claim is no longer waiting.');
    if (!mayActOnScope(actor, 'user:edit', claim.scope))
      throw forbidden('You may not decide on roles claimed at this scope.');
    if (decision === 'approve') {
      // A claim kept from before role strings refused control characters is refused, not approved.
      if (hasControlCharacter(formatRoleString(claim), { singleLine: true }))
        throw badRequest(CONTROL_CHARACTER_MESSAGE, { roles: CONTROL_CHARACTER_MESSAGE });
      await repo.addRoles(trx, userId, [claim]);
      // A newcomer joins the organisation that approved it, whose administrators then manage it.
      const user = await repo.findUser(trx, userId, true);
      if (user?.scope === newcomerScope)
        await repo.updateUser(trx, userId, user.version, { scope: claim.scope });
    }
    await recordEvent(trx, {
      type: decision === 'approve' ? 'roleClaimApproved' : 'roleClaimRefused',
      aggregateType: 'user',
      aggregateId: userId,
      actor: actor.id,
      payload: {
        changes: {
          roleClaims: {
            from: formatRoleString(claim),
            to: decision === 'approve' ? '(approved)' : '(refused)',
          },
        },
      },
    });
  });
  // A refused newcomer is outside the administrator's scopes again: the page goes back to the list.
  if (decision === 'refuse' && !(await mayViewUser(db, actor, userId)))
    return { $type: 'roleClaimDecided', userId, decision };
  return getUserView(db, actor, userId);
}

async function mayViewUser(db: Db, actor: Actor, userId: string): Promise<boolean> {
  const user = await repo.findUser(db, userId);
  return user !== undefined && mayActOnScope(actor, 'user:view', user.scope);
}

/** The claims waiting for this administrator, oldest first, for the users page. */
export async function claimsWaitingFor(db: Db, actor: Actor) {
  const claims = await listClaimsInScopes(db, userScopes(actor, 'user:edit'), 50);
  return claims.map((c) => ({
    id: c.id,
    userId: c.userId,
    userName: c.userName,
    role: formatRoleString({
      role: c.role,
      scope: c.scope,
      ...(c.externalReference === null ? {} : { externalReference: c.externalReference }),
    }),
    claimedAt: c.claimedAt.toISOString(),
  }));
}
