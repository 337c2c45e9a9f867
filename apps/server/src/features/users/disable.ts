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
