import { z } from 'zod';
import { defineView } from './view.js';

// The dashboard: its page, and the answer of each tile (GET /dashboard/{tile}), whose lines are
// tagged with their $type so the page picks the layout of each.

export const ownerChoiceSchema = z.object({ id: z.string(), name: z.string() });

export const dashboardViewSchema = defineView('dashboard', {
  tiles: z.array(z.string()),
  canShowMine: z.boolean(),
  selectableOwners: z.array(ownerChoiceSchema),
  countCap: z.number(),
});
export type DashboardView = z.infer<typeof dashboardViewSchema>;

export const dashboardTaskSchema = z.strictObject({
  $type: z.literal('task'),
  taskId: z.string(),
  type: z.string(),
  subject: z.string(),
  requestNumber: z.string().nullable(),
  messageId: z.string().nullable(),
  applicantName: z.string().nullable(),
  triggeredAt: z.string(),
  dueAt: z.string().nullable(),
  isOverdue: z.boolean(),
  markedInProgressAt: z.string().nullable(),
  isAssignedTo: z.string().nullable(),
  isAssignedToDisplayName: z.string().nullable(),
});
export type DashboardTask = z.infer<typeof dashboardTaskSchema>;

export const dashboardCorrespondenceSchema = z.strictObject({
  $type: z.literal('correspondence'),
  messageId: z.string(),
  kind: z.string(),
  requestNumber: z.string(),
  applicantName: z.string().nullable(),
  subject: z.string().nullable(),
  isUrgentNote: z.boolean(),
  issueRequestMethod: z.string().nullable(),
  messageDeliveryStatus: z.string().nullable(),
  createdAt: z.string(),
  createdByDisplayName: z.string().nullable(),
});
export type DashboardCorrespondence = z.infer<typeof dashboardCorrespondenceSchema>;

export const dashboardResultSchema = z.strictObject({
  $type: z.literal('result'),
  resultId: z.string(),
  state: z.string(),
  requestNumber: z.string(),
  subject: z.string().nullable(),
  fileName: z.string().nullable(),
  createdAt: z.string(),
  qualityAssuredAt: z.string().nullable(),
});
export type DashboardResult = z.infer<typeof dashboardResultSchema>;

export const dashboardRequestSchema = z.strictObject({
  $type: z.literal('request'),
  requestNumber: z.string(),
  scope: z.string(),
  status: z.string(),
  applicantName: z.string(),
  recipientName: z.string(),
  submittedAt: z.string(),
  closedAt: z.string().nullable(),
  lastActivityAt: z.string(),
});
export type DashboardRequest = z.infer<typeof dashboardRequestSchema>;

export const dashboardItemSchema = z.discriminatedUnion('$type', [
  dashboardTaskSchema,
  dashboardCorrespondenceSchema,
  dashboardResultSchema,
  dashboardRequestSchema,
]);
export type DashboardItem = z.infer<typeof dashboardItemSchema>;

/** A page of a tile, with its capped count and the counts of its filter keys. */
export const dashboardTileSchema = z.strictObject({
  items: z.array(dashboardItemSchema),
  total: z.number(),
  totalIsCapped: z.boolean(),
  paging: z.object({ offset: z.number(), size: z.number() }),
  aggregations: z.array(
    z.object({ key: z.string(), count: z.number(), isCapped: z.boolean(), name: z.string().optional() }),
  ),
  selectableOwners: z.array(ownerChoiceSchema),
});
export type DashboardTileAnswer = z.infer<typeof dashboardTileSchema>;
