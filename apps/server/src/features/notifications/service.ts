import {
  type ActiveNotifications,
  NOTIFICATIONS_KEPT,
  type Notification,
  type NotificationType,
} from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import type { LiveHub } from '../../live/hub.js';
import type { Actor } from '../auth/index.js';
import * as repo from './repository.js';

// The bell shows "99+" style counts: counting stops at this many.
const ACTIVE_CAP = 99;

type Row = Awaited<ReturnType<typeof repo.listRecent>>[number];

function toNotification(
  row: Omit<Row, 'created_by_name'> & { created_by_name?: string | null },
): Notification {
  return {
    $type: 'notification',
    notificationId: row.id,
    type: row.type as NotificationType,
    target: row.target,
    text: row.text,
    createdAt: row.created_at.toISOString(),
    createdByDisplayName: row.created_by_name ?? null,
    acknowledgedAt: row.acknowledged_at?.toISOString() ?? null,
  };
}

export async function listNotifications(db: DbOrTrx, actor: Actor): Promise<Notification[]> {
  return (await repo.listRecent(db, actor.id, NOTIFICATIONS_KEPT)).map(toNotification);
}

export async function countActiveNotifications(db: DbOrTrx, actor: Actor): Promise<ActiveNotifications> {
  const count = await repo.countActive(db, actor.id, ACTIVE_CAP + 1);
  return { count: Math.min(count, ACTIVE_CAP), hasMore: count > ACTIVE_CAP };
}

/** Acknowledges the actor's own notifications; ids of anybody else's are ignored. */
export async function acknowledgeNotifications(
  db: DbOrTrx,
  actor: Actor,
  which: { all: true } | { notificationIds: string[] },
): Promise<Notification[]> {
  await repo.acknowledge(db, actor.id, 'all' in which ? 'all' : which.notificationIds);
  return listNotifications(db, actor);
}

/** Creates a notification for a user and pushes it live once the transaction commits. */
export async function createNotification(
  db: DbOrTrx,
  live: LiveHub | undefined,
  input: { userId: string; type: NotificationType; target: string; text: string; createdBy: Actor | null },
): Promise<Notification> {
  const row = await repo.insert(db, { ...input, createdBy: input.createdBy?.id ?? null });
  const notification = toNotification({ ...row, created_by_name: input.createdBy?.name ?? null });
  // Without a hub (mail taken in by a process that pushes nothing) the row waits for the next load.
  if (live) await live.publish(db, [input.userId], notification);
  return notification;
}

/**
 * Tells the sender's side of a request (its submitter and whoever it was submitted on behalf of)
 * what happened to it, leaving out the actor, who knows.
 */
export async function notifySubmitters(
  db: DbOrTrx,
  live: LiveHub | undefined,
  request: { request_number: string; submitted_by: string | null; submitted_on_behalf_of: string | null },
  actor: Actor,
  notice: { type: NotificationType; text: string },
): Promise<void> {
  for (const userId of new Set([request.submitted_by, request.submitted_on_behalf_of])) {
    if (!userId || userId === actor.id) continue;
    await createNotification(db, live, {
      userId,
      ...notice,
      target: `/requests/${request.request_number}`,
      createdBy: actor,
    });
  }
}
