import { z } from 'zod';

// What search and filter forms send in a query string: every field, filled or not, so an empty
// field means no filter; dates as YYYY-MM-DD. Route contracts build their queries from these.

/** An empty field is no filter. */
export const optionalQuery = <T extends z.ZodTypeAny>(schema: T) =>
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
