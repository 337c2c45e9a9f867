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

/**
 * Where the next page starts: the last entry shown, as `<at>_<id>` (entries go by time, then id),
 * the time to the microsecond as the database keeps it (`exactAt`; `at` is it to the millisecond).
 */
export interface AccessCursor {
  at: Date;
  exactAt: string;
  id: string;
}

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z)_(\d{1,18})$/;

/** The cursor in `before`, or undefined when it is not one. */
export function parseAccessCursor(text: string): AccessCursor | undefined {
  const m = CURSOR.exec(text);
  if (!m?.[1] || !m[2]) return undefined;
  const at = new Date(m[1]);
  return Number.isNaN(at.getTime()) || at.toISOString().slice(0, 19) !== m[1].slice(0, 19)
    ? undefined
    : { at, exactAt: m[1], id: m[2] };
}

/**
 * Newest first, a page at a time: the next page by `before` (the last entry shown, a keyset: each
 * page reads only the months up to it), or by `pageOffset` (older callers; at most 10,000 deep).
 */
export const requestAccessRoute = defineRoute({
  method: 'GET',
  path: '/requests/:requestNumber/access',
  params: z.object({ requestNumber: z.string().max(20) }),
  query: z.object({
    pageOffset: z.coerce.number().int().min(0).max(ACCESS_OFFSET_CAP).default(0),
    before: z
      .string()
      .max(60)
      .refine((s) => parseAccessCursor(s) !== undefined, 'Must be the cursor of an entry.')
      .optional(),
  }),
  answer: z.object({
    entries: z.array(accessEntrySchema),
    hasMore: z.boolean(),
    /** The `before` of the next page, when there is one. */
    next: z.string().nullable(),
  }),
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
