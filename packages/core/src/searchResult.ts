import { z } from 'zod';

// Search answers (hits, total, paging) and the summary texts every search page shows.

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const pagingQuerySchema = z.object({
  pageOffset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});
export type PagingQuery = z.infer<typeof pagingQuerySchema>;

// What search and filter forms send in a query string: every field, filled or not, so an empty
// field means no filter; dates as YYYY-MM-DD.

/** An empty field is no filter. */
export const optionalQuery = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const isCalendarDate = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
};

/** A calendar date as YYYY-MM-DD (30 February is refused). */
export const dateQuery = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date as YYYY-MM-DD.')
  .refine(isCalendarDate, 'Enter a valid date.');

/**
 * The schema of a search answer (SearchAnswer) with hits of `item`: what every search route
 * answers, for its contract.
 */
export function searchAnswerSchema<T extends z.ZodType>(item: T) {
  return z.object({
    hits: z.array(z.object({ id: z.string(), item, highlight: z.string().optional() })),
    total: z.number(),
    paging: z.object({ offset: z.number(), size: z.number() }),
    totalIsCapped: z.boolean().optional(),
  });
}

// The optional fields say `| undefined` as searchAnswerSchema parses them (zod's optional).
export interface SearchHit<T> {
  id: string;
  item: T;
  highlight?: string | undefined;
}

export interface SearchAnswer<T> {
  hits: SearchHit<T>[];
  total: number;
  paging: { offset: number; size: number };
  /** Counting stopped at a cap: there are more than `total` matches. */
  totalIsCapped?: boolean | undefined;
}

export const NO_SEARCH_RESULT = 'No matching search result.';

/**
 * "Showing N search result(s)." when all fit on the page, else "Showing search result X to Y out of Z."
 * A capped total (counting stopped there) says "out of more than Z".
 */
export function searchSummary(answer: {
  total: number;
  hits: unknown[];
  paging: { offset: number };
  totalIsCapped?: boolean | undefined;
}): string {
  if (answer.total === 0 || answer.hits.length === 0) return NO_SEARCH_RESULT;
  if (answer.paging.offset === 0 && answer.hits.length === answer.total && !answer.totalIsCapped) {
    return `Showing ${answer.total} search result(s).`;
  }
  const from = answer.paging.offset + 1;
  const outOf = answer.totalIsCapped ? `more than ${answer.total}` : answer.total;
  return `Showing search result ${from} to ${answer.paging.offset + answer.hits.length} out of ${outOf}.`;
}
