import { z } from 'zod';
import type { ReportColumn } from '../reports/columns.js';
import { defineView, scopeChoiceSchema, typed } from './view.js';

// A report's page: what its Run Report form offers. Each filter travels as `filter.<name>`.

export const REPORT_FILTERS = ['date', 'from', 'to', 'scope', 'taskType', 'status', 'currency'] as const;

export const reportViewSchema = defineView('report', {
  report: z.string(),
  path: z.string(),
  filters: z.array(z.enum(REPORT_FILTERS)),
  statuses: z.array(z.string()),
  columns: z.array(typed<ReportColumn>()),
  scopes: z.array(scopeChoiceSchema),
  taskTypes: z.array(z.string()),
  currencies: z.array(z.string()),
  /** The period a report opens on (the last 12 months, local dates of the organisation). */
  defaultPeriod: z.object({ from: z.string(), to: z.string() }),
});
export type ReportView = z.infer<typeof reportViewSchema>;
