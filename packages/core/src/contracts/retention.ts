import { z } from 'zod';
import { REQUIRED_MESSAGE } from '../requests/wizard.js';
import { dateQuery, optionalQuery } from '../searchResult.js';
import { defineRoute } from './route.js';
import { defineView } from './view.js';

// Retention and erasure on request (issue 36): the administrator's page that shows what the next
// retention run will remove and runs it, and the erasure of an applicant's data.

export const RETENTION_RUN_KINDS = ['scheduled', 'manual', 'erasure'] as const;
export type RetentionRunKind = (typeof RETENTION_RUN_KINDS)[number];

/** What the next run will do in one scope, by its effective retention. */
export const retentionDueSchema = z.object({
  scope: z.string(),
  deleteFilesAfterMonths: z.number().nullable(),
  deIdentifyAfterMonths: z.number().nullable(),
  /** Closed requests whose files are due for removal, and how many files they hold. */
  requestsWithFilesDue: z.number(),
  filesDue: z.number(),
  requestsToDeIdentify: z.number(),
  /** Closed requests past a limit that their legal hold keeps. */
  held: z.number(),
});
export type RetentionDue = z.infer<typeof retentionDueSchema>;

export const retentionLeftSchema = z.object({
  requestNumber: z.string(),
  reason: z.enum(['open', 'legalHold']),
});

export const retentionRunSchema = z.object({
  id: z.string(),
  kind: z.enum(RETENTION_RUN_KINDS),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  actorName: z.string().nullable(),
  requestedBy: z.string().nullable(),
  reason: z.string().nullable(),
  filesRemoved: z.number(),
  requestsDeIdentified: z.number(),
  requestNumbers: z.array(z.string()),
  leftRequests: z.array(retentionLeftSchema),
  /** The access log's months (access_log_YYYY_MM) the run dropped. */
  accessLogMonths: z.array(z.string()),
});
export type RetentionRun = z.infer<typeof retentionRunSchema>;

export const adminRetentionViewSchema = defineView('adminRetention', {
  due: z.array(retentionDueSchema),
  totals: retentionDueSchema.omit({ scope: true, deleteFilesAfterMonths: true, deIdentifyAfterMonths: true }),
  /**
   * The access log's retention: the months it keeps (the longest any scope asks for; null keeps
   * it all) and the months the next run at the root will drop.
   */
  accessLog: z.object({ keepMonths: z.number().nullable(), monthsDue: z.array(z.string()) }),
  /** The latest runs and erasures in the administrator's scopes, newest first. */
  runs: z.array(retentionRunSchema),
});
export type AdminRetentionView = z.infer<typeof adminRetentionViewSchema>;

export const erasureSearchSchema = z.object({
  name: z.string().trim().min(1, REQUIRED_MESSAGE).max(300, 'Must be at most 300 characters long.'),
  dateOfBirth: optionalQuery(dateQuery),
  reference: optionalQuery(z.string().trim().max(100, 'Must be at most 100 characters long.')),
});
export type ErasureSearch = z.infer<typeof erasureSearchSchema>;

/** A request of the applicant found, and whether an erasure takes it now. */
export const erasureMatchSchema = z.object({
  requestNumber: z.string(),
  scope: z.string(),
  applicantName: z.string(),
  dateOfBirth: z.string().nullable(),
  status: z.string(),
  closedAt: z.string().nullable(),
  deIdentifiedAt: z.string().nullable(),
  /** Null: erased when the administrator confirms; else why it is left as it is. */
  leftBecause: z.enum(['open', 'legalHold']).nullable(),
});
export type ErasureMatch = z.infer<typeof erasureMatchSchema>;

export const adminErasureViewSchema = defineView('adminErasure', {
  search: z.object({ name: z.string(), dateOfBirth: z.string(), reference: z.string() }),
  /** Undefined until searched. */
  matches: z.array(erasureMatchSchema).optional(),
  /** The erasure just done. */
  done: retentionRunSchema.optional(),
});
export type AdminErasureView = z.infer<typeof adminErasureViewSchema>;

// ---- Routes (apps/server/src/features/retention)

export const adminRetentionRoute = defineRoute({
  method: 'GET',
  path: '/admin/retention',
  answer: adminRetentionViewSchema,
});

/** POST /admin/retention/run: runs retention now in the administrator's scopes; answers the page. */
export const runRetentionRoute = defineRoute({
  method: 'POST',
  path: '/admin/retention/run',
  answer: adminRetentionViewSchema,
});

/** GET /admin/retention/erasure?name=&dateOfBirth=&reference=: the page, with the matches when named. */
export const adminErasureRoute = defineRoute({
  method: 'GET',
  path: '/admin/retention/erasure',
  query: z.object({
    name: optionalQuery(erasureSearchSchema.shape.name),
    dateOfBirth: erasureSearchSchema.shape.dateOfBirth,
    reference: erasureSearchSchema.shape.reference,
  }),
  answer: adminErasureViewSchema,
});

export const eraseApplicantRoute = defineRoute({
  method: 'POST',
  path: '/admin/retention/erasure',
  body: erasureSearchSchema.extend({
    requestedBy: z.string().trim().min(1, REQUIRED_MESSAGE).max(300, 'Must be at most 300 characters long.'),
    reason: z.string().trim().min(1, REQUIRED_MESSAGE).max(1000, 'Must be at most 1000 characters long.'),
  }),
  answer: adminErasureViewSchema,
});
