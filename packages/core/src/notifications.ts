import type { Notification } from './contracts/notifications.js';

export const NOTIFICATION_TYPES = [
  'mention',
  'requestIssued',
  'requestTaskAdded',
  'requestNoteAdded',
  'requestClosed',
  'requestReOpened',
  // Not in the specification: a payee's bank account or email changed (issue 24), told to the
  // root administrators, since it redirects payments.
  'payeeChanged',
  // Not in the specification: mail arrived for a closed request (issue 22), told to its last
  // handler, who decides whether it is re-opened.
  'closedRequestMessage',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** How many notifications the client keeps: the most recent, newest first by id. */
export const NOTIFICATIONS_KEPT = 20;

/** The request number inside a notification target such as /request/ABC251122QXT42/... */
export function requestNumberOfTarget(target: string): string | undefined {
  return /\/requests?\/([A-Za-z0-9]+)(?:\/|$)/.exec(target)?.[1];
}

/** Keeps the most recent notifications, newest first by id, without duplicates. */
export function mergeNotifications(current: Notification[], incoming: Notification[]): Notification[] {
  const byId = new Map<string, Notification>();
  for (const n of [...current, ...incoming]) byId.set(n.notificationId, n);
  return [...byId.values()]
    .sort((a, b) => compareIdsDescending(a.notificationId, b.notificationId))
    .slice(0, NOTIFICATIONS_KEPT);
}

function compareIdsDescending(a: string, b: string): number {
  return a.length !== b.length ? b.length - a.length : b.localeCompare(a);
}
