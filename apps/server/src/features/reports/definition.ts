import type { Features, Permission, ReportChart, ReportColumn, ReportName, ReportRow } from '@dossier/core';
import type { RawBuilder } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import type { Actor } from '../auth/index.js';
import type { HolidaySets } from './queries/calendar.js';
import type { FilterName, ReportFilters } from './queries/filters.js';

// One report = one definition file: its path, the form fields it offers, its summary columns, the
// SQL of its summary (grouped rows and a chart) and of its export (one line per item, newest first,
// at most `limit`). Each definition file is that report's repository: its SQL lives there.

export interface ReportContext {
  db: DbOrTrx;
  actor: Actor;
  holidays: HolidaySets;
  /** Today's local date (YYYY-MM-DD): the end of the clock for what is still open. */
  today: string;
}

export interface ExportColumn {
  key: string;
  header: string;
  /** Minor units written as a decimal amount. */
  currency?: boolean;
  /** How the stored values are named in the file (payment methods). */
  labels?: Readonly<Record<string, string>>;
}

export interface ReportSummary {
  rows: ReportRow[];
  chart: ReportChart | null;
}

export interface ReportDefinition {
  name: ReportName;
  path: string;
  title: string;
  /** Permissions needed besides reports:view. */
  needs: Permission[];
  /** A feature that must be on (Request Results only with download tracking). */
  feature?: keyof Features;
  filters: readonly FilterName[];
  /** It reads the access log: a run first writes this instance's queued entries (audit/accessLog.ts). */
  readsAccessLog?: true;
  /** The choices of the status filter, when the report has one. */
  statuses?: readonly string[];
  columns: ReportColumn[];
  summary(ctx: ReportContext, f: ReportFilters): Promise<ReportSummary>;
  exportColumns: ExportColumn[];
  exportQuery(ctx: ReportContext, f: ReportFilters, limit: number): RawBuilder<Record<string, unknown>>;
}

/** Weeks (Monday, YYYY-MM-DD) from grouped rows into chart categories with one value per series. */
export function weeklyChart(
  title: string,
  rows: readonly Record<string, unknown>[],
  series: readonly string[],
): ReportChart | null {
  if (rows.length === 0) return null;
  return {
    title,
    categories: rows.map((r) => String(r.week)),
    series: series.map((key) => ({ key, values: rows.map((r) => Number(r[key] ?? 0)) })),
  };
}
