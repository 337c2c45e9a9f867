import { REPORT_OPEN_STATUSES, REPORT_RESULT_STATUSES, reportQuerySchema } from '@dossier/core';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import { scopeAtOrUnder } from '../../../db/scopes.js';
import { TIME_ZONE } from './calendar.js';

// The Run Report form as it travels (GET query, `filter.*` like the dashboard and the menu's
// `/reports/tasks/active?filter.date=triggeredAt`). Dates are YYYY-MM-DD local dates; "to" takes in
// the whole of that day. Which fields a report shows is in its definition; the others are ignored.

export const FILTER_NAMES = [
  'from',
  'to',
  'scope',
  'taskType',
  'date',
  'status',
  'currency',
  'user',
  'applicant',
  'request',
] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

export const OPEN_STATUSES = REPORT_OPEN_STATUSES;
export const RESULT_STATUSES = REPORT_RESULT_STATUSES;

// The query's schema is the report routes' contract (core: reportRoutesOf).
export { reportQuerySchema };

export type ReportQuery = z.infer<typeof reportQuerySchema>;

export interface ReportFilters {
  from?: string | undefined;
  to?: string | undefined;
  scope?: string | undefined;
  taskType?: string | undefined;
  date?: 'triggeredAt' | 'dueAt' | undefined;
  status?: string | undefined;
  currency?: string | undefined;
  /** The Access log's: a user's id or the start of their name, part of an applicant's name, a request number. */
  user?: string | undefined;
  applicant?: string | undefined;
  request?: string | undefined;
}

export function filtersOf(q: ReportQuery): ReportFilters {
  return {
    from: q['filter.from'],
    to: q['filter.to'],
    scope: q['filter.scope'],
    taskType: q['filter.taskType'],
    date: q['filter.date'],
    status: q['filter.status'],
    currency: q['filter.currency'],
    user: q['filter.user'],
    applicant: q['filter.applicant'],
    request: q['filter.request'],
  };
}

/** A timestamp column within the local dates from … to (both whole days); true without bounds. */
export function inDateRange(column: RawBuilder<unknown>, f: ReportFilters): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = [];
  if (f.from) parts.push(sql<SqlBool>`${column} >= (${f.from}::date)::timestamp at time zone ${TIME_ZONE}`);
  if (f.to) parts.push(sql<SqlBool>`${column} < (${f.to}::date + 1)::timestamp at time zone ${TIME_ZONE}`);
  return parts.length === 0 ? sql<SqlBool>`true` : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/** The same range on a column of local dates (the days of task_completion_days). */
export function inDayRange(column: RawBuilder<unknown>, f: ReportFilters): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = [];
  if (f.from) parts.push(sql<SqlBool>`${column} >= ${f.from}::date`);
  if (f.to) parts.push(sql<SqlBool>`${column} <= ${f.to}::date`);
  return parts.length === 0 ? sql<SqlBool>`true` : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/** The chosen scope and everything below it; true without one. */
export function inScope(column: RawBuilder<unknown>, scope: string | undefined): RawBuilder<SqlBool> {
  if (!scope) return sql<SqlBool>`true`;
  return scopeAtOrUnder(column, scope);
}
