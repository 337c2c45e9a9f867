import { z } from 'zod';
import { isCurrency } from '../currencies.js';
import { AVERAGE_UNITS, REPORT_NAMES } from '../reports/columns.js';
import { dateQuery, optionalQuery } from '../searchResult.js';
import { WORKFLOW_TASK_TYPES } from '../tasks.js';
import { defineRoute } from './route.js';
import { defineView, scopeChoiceSchema } from './view.js';

// A report's page: what its Run Report form offers. Each filter travels as `filter.<name>`.

export const REPORT_FILTERS = [
  'date',
  'from',
  'to',
  'scope',
  'taskType',
  'status',
  'currency',
  // The Access log's (issue 36): a user id, an applicant's name, a request number.
  'user',
  'applicant',
  'request',
] as const;

export const reportColumnSchema = z.union([
  z.object({ key: z.string(), kind: z.literal('id') }),
  z.object({ key: z.string(), kind: z.literal('count') }),
  z.object({ key: z.string(), kind: z.literal('currency'), currencyKey: z.string() }),
  z.object({
    key: z.string(),
    kind: z.literal('average'),
    weightedBy: z.string(),
    unit: z.enum(AVERAGE_UNITS),
    currencyKey: z.string().optional(),
  }),
  z.object({ key: z.string(), kind: z.literal('ratio'), numerator: z.string(), denominator: z.string() }),
]);

export const reportViewSchema = defineView('report', {
  report: z.string(),
  path: z.string(),
  filters: z.array(z.enum(REPORT_FILTERS)),
  statuses: z.array(z.string()),
  columns: z.array(reportColumnSchema),
  scopes: z.array(scopeChoiceSchema),
  taskTypes: z.array(z.string()),
  currencies: z.array(z.string()),
  /** The period a report opens on (the last 12 months, local dates of the organisation). */
  defaultPeriod: z.object({ from: z.string(), to: z.string() }),
});
export type ReportView = z.infer<typeof reportViewSchema>;

const reportRowSchema = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));

/** The summary table of a run (and its chart). */
export const reportAnswerSchema = z.strictObject({
  report: z.enum(REPORT_NAMES),
  columns: z.array(reportColumnSchema),
  rows: z.array(reportRowSchema),
  totals: reportRowSchema.nullable(),
  currencyTotals: z.array(reportRowSchema),
  chart: z
    .object({
      title: z.string(),
      categories: z.array(z.string()),
      series: z.array(z.object({ key: z.string(), values: z.array(z.number()) })),
    })
    .nullable(),
  message: z.string().nullable(),
});

/** The statuses the open-requests and request-results reports filter by. */
export const REPORT_OPEN_STATUSES = ['submitted', 'open'] as const;
export const REPORT_RESULT_STATUSES = ['qualityAssured', 'awaitingQa', 'downloaded', 'discarded'] as const;

/**
 * The Run Report form as it travels (GET query, `filter.*` like the dashboard and the menu's
 * `/reports/tasks/active?filter.date=triggeredAt`). Dates are YYYY-MM-DD local dates; "to" takes in
 * the whole of that day. Which fields a report shows is in its definition; the others are ignored.
 */
export const reportQuerySchema = z
  .object({
    'filter.from': optionalQuery(dateQuery),
    'filter.to': optionalQuery(dateQuery),
    'filter.scope': optionalQuery(z.string().max(300).startsWith('/', 'Choose a scope from the list.')),
    'filter.taskType': optionalQuery(z.enum(WORKFLOW_TASK_TYPES, { message: 'Unknown task type.' })),
    'filter.date': optionalQuery(
      z.enum(['triggeredAt', 'dueAt'], { message: 'Choose triggeredAt or dueAt.' }),
    ),
    'filter.status': optionalQuery(
      z.enum([...REPORT_OPEN_STATUSES, ...REPORT_RESULT_STATUSES], {
        message: 'Choose a status from the list.',
      }),
    ),
    'filter.currency': optionalQuery(
      z.string().refine((c) => isCurrency(c), 'Choose a currency from the list.'),
    ),
    'filter.user': optionalQuery(z.string().max(100)),
    'filter.applicant': optionalQuery(z.string().max(100)),
    'filter.request': optionalQuery(z.string().max(20)),
    export: optionalQuery(z.enum(['csv'], { message: 'The only export is csv.' })),
  })
  .refine((q) => !q['filter.from'] || !q['filter.to'] || q['filter.from'] <= q['filter.to'], {
    message: 'The end date is before the start date.',
    path: ['filter.to'],
  });

/**
 * The two routes of the report at `path` (each report is a page of its own; the server's
 * features/reports lists them, and the page's view names its path):
 * - GET {path}: the page, or with `export=csv` the CSV export (a file, not JSON, so not checked).
 *   The page ignores its filters (the browser reads them from the address and runs the report
 *   through `filter`), so a shared address with a mistyped date still opens; only the export
 *   checks them, by reportQuerySchema.
 * - GET {path}/filter: the summary table for the Run Report form, or with `export=csv` the export.
 */
export function reportRoutesOf(path: string) {
  return {
    page: defineRoute({
      method: 'GET',
      path,
      query: z.record(z.string(), z.unknown()),
      answer: reportViewSchema,
    }),
    filter: defineRoute({
      method: 'GET',
      path: `${path}/filter`,
      query: reportQuerySchema,
      answer: reportAnswerSchema,
    }),
  };
}
