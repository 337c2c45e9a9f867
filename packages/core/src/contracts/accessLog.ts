import { z } from 'zod';
import { defineRoute } from './route.js';

// The access log of a request (issue 36): who read its personal data, when, what and how. Shown on
// the request page's Access tab to administrators and managers of the request's scope.

export const ACCESS_WHATS = ['request', 'history', 'preview', 'file', 'export'] as const;
export const ACCESS_VIAS = ['page', 'api', 'export'] as const;
export const ACCESS_PAGE_SIZE = 50;
/** The deepest page offset asked for: older entries are the Access log report's. */
export const ACCESS_OFFSET_CAP = 10_000;

export const accessEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** The person's display name, the API client, or the recipient's access. */
  who: z.string(),
  userId: z.string().nullable(),
  apiClient: z.string().nullable(),
  what: z.enum(ACCESS_WHATS),
  via: z.enum(ACCESS_VIAS),
  /** A file read: the file's name (its key when the file is gone). */
  fileName: z.string().nullable(),
  address: z.string().nullable(),
});
export type AccessEntry = z.infer<typeof accessEntrySchema>;

/** Newest first, a page at a time. */
export const requestAccessRoute = defineRoute({
  method: 'GET',
  path: '/requests/:requestNumber/access',
  params: z.object({ requestNumber: z.string().max(20) }),
  query: z.object({
    pageOffset: z.coerce.number().int().min(0).max(ACCESS_OFFSET_CAP).default(0),
  }),
  answer: z.object({ entries: z.array(accessEntrySchema), hasMore: z.boolean() }),
});

/**
 * The accounting of disclosures of the request's applicant (every request of theirs in the caller's
 * scopes): a PDF for the person who asks. Answers bytes.
 */
export const applicantDisclosuresRoute = defineRoute({
  method: 'GET',
  path: '/requests/:requestNumber/disclosures',
  params: z.object({ requestNumber: z.string().max(20) }),
  answer: z.unknown(),
});
