import { z } from 'zod';
import { optionalQuery } from '../searchResult.js';
import { WORKFLOW_TASK_TYPES } from '../tasks.js';
import { defineRoute } from './route.js';
import { defineView } from './view.js';

// The dashboard: its page, and the answer of each tile (GET /dashboard/{tile}), whose lines are
// tagged with their $type so the page picks the layout of each.

/** The tiles, each answered by GET /dashboard/{tile}. */
export const DASHBOARD_TILES = [
  'activeTasks',
  'correspondence',
  'results',
  'closedRequests',
  'openRequests',
] as const;
export type DashboardTileName = (typeof DASHBOARD_TILES)[number];

/** Where each count of a tile stops (the page shows "1,000+"), and so its paging too. */
export const DASHBOARD_COUNT_CAP = 1_000;

export const DUE_VALUES = ['today', 'tomorrow', 'dayAfterTomorrow'] as const;

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

/** GET /dashboard: the page; its tiles are fetched one by one. */
export const dashboardPageRoute = defineRoute({
  method: 'GET',
  path: '/dashboard',
  answer: dashboardViewSchema,
});

/** GET /dashboard/{bind}: a page of one tile, its counts and the owners its filter offers. */
export const dashboardTileRoute = defineRoute({
  method: 'GET',
  path: '/dashboard/:bind',
  params: z.object({ bind: z.enum(DASHBOARD_TILES) }),
  query: z.object({
    // Paging stops where counting stops.
    pageOffset: z.coerce.number().int().min(0).max(DASHBOARD_COUNT_CAP).default(0),
    pageSize: z.coerce.number().int().min(1).max(50).default(10),
    due: optionalQuery(z.enum(DUE_VALUES, { message: 'Choose today, tomorrow or dayAfterTomorrow.' })),
    owner: z.preprocess(
      (v) => (v === '' || v === undefined ? 'all' : v),
      z.string().max(100, 'Choose an owner from the list.'),
    ),
    'filter.taskType': optionalQuery(
      z.enum(['all', ...WORKFLOW_TASK_TYPES], { message: 'Unknown task type.' }),
    ),
    'filter.requestStatus': optionalQuery(
      z.enum(['submitted', 'open', 'closed'], { message: 'Choose submitted, open or closed.' }),
    ),
    'filter.key': optionalQuery(z.string().max(300)),
  }),
  answer: dashboardTileSchema,
});
