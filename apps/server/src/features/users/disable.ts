import type { Trx } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { LiveHub } from '../../live/hub.js';
import { reassignOpenTasks } from '../assignment/index.js';
import { endUserSessions } from '../auth/index.js';

/**
 * What follows when an account is disabled, whoever disabled it: whoever is signed in as it is
 * signed out on every instance, and its open tasks go to others (or the fallback).
 */
export async function settleDisabledUser(
  trx: Trx,
  userId: string,
  effects: { live?: LiveHub; jobs?: JobQueue | undefined },
): Promise<void> {
  await endUserSessions(trx, effects.live, userId);
  await reassignOpenTasks(trx, effects.jobs, { userId }, effects.live);
}

/**
 * What follows when roles are taken from a user, whoever took them (the user screens, the account
 * page, a SCIM group change): its open tasks that it may no longer work go to others (or the
 * fallback), as for a disabled user. Its sessions live on with the roles it keeps: every request
 * reads the actor's roles as they are now (the session cache forgets on any change of roles, on
 * every instance), and live messages and presence are re-checked on the same change (presence).
 */
export async function settleRemovedRoles(
  trx: Trx,
  userId: string,
  effects: { live?: LiveHub | undefined; jobs?: JobQueue | undefined },
): Promise<void> {
  await reassignOpenTasks(trx, effects.jobs, { userId, reason: 'roles' }, effects.live);
}
