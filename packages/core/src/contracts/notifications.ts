import { z } from 'zod';
import { NOTIFICATION_TYPES } from '../notifications.js';

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
