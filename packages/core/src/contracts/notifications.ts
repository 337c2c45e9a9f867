import { z } from 'zod';
import { NOTIFICATION_TYPES } from '../notifications.js';
import { defineRoute } from './route.js';

// Notifications: one as the list shows it and as it is pushed live, the bell's count, and the body
// that acknowledges some or all.

export const notificationSchema = z.object({
  $type: z.literal('notification'),
  notificationId: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  target: z.string(),
  text: z.string(),
  createdAt: z.string(),
  createdByDisplayName: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const activeNotificationsSchema = z.object({ count: z.number(), hasMore: z.boolean() });
export type ActiveNotifications = z.infer<typeof activeNotificationsSchema>;

export const acknowledgeNotificationsSchema = z.union([
  z.object({ all: z.literal(true) }),
  z.object({ notificationIds: z.array(z.string().regex(/^\d+$/)).min(1).max(100) }),
]);
export type AcknowledgeNotifications = z.infer<typeof acknowledgeNotificationsSchema>;

const notificationListSchema = z.object({ notifications: z.array(notificationSchema) });

/** GET /notifications: the user's recent notifications, newest first. */
export const listNotificationsRoute = defineRoute({
  method: 'GET',
  path: '/notifications',
  answer: notificationListSchema,
});

/** GET /notifications/active: the bell's count. */
export const activeNotificationsRoute = defineRoute({
  method: 'GET',
  path: '/notifications/active',
  answer: activeNotificationsSchema,
});

/** POST /notifications/acknowledge: marks some or all read; answers the acknowledged ones. */
export const acknowledgeNotificationsRoute = defineRoute({
  method: 'POST',
  path: '/notifications/acknowledge',
  body: acknowledgeNotificationsSchema,
  answer: notificationListSchema,
});
