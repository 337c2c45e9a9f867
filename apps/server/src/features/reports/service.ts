import {
  CURRENCIES,
  dateInTimeZone,
  EMPTY_REPORT_MESSAGE,
  type Features,
  isWithinScope,
  type ReportAnswer,
  type ReportView,
  totalsOf,
  totalsPerCurrency,
  WORKFLOW_TASK_TYPES,
  withRatios,
} from '@dossier/core';
import type { Db } from '../../db/database.js';
import { badRequest, forbidden } from '../../http/errors.js';
import { type Actor, hasPermission } from '../auth/index.js';
import { listScopeEntries } from '../configuration/index.js';
import type { ReportContext, ReportDefinition } from './definition.js';
import { reportScopes } from './queries/access.js';
import { loadHolidaySets, TIME_ZONE } from './queries/calendar.js';
import type { ReportFilters } from './queries/filters.js';
import { inReportSnapshot } from './queries/snapshot.js';

// The use cases of the report pages: the page view (its form's choices), running a report (the
// summary table with totals and chart) and preparing an export (see csvExport.ts).

/**
 * 403 unless the actor holds reports:view and whatever else the report needs (users: user:view;
 * request results: request:view:content), and the report's feature is on.
 */
export function assertMayRun(actor: Actor, report: ReportDefinition, features: Features): void {
  if (report.feature && !features[report.feature]) throw forbidden();
  for (const permission of ['reports:view' as const, ...report.needs])
    if (!hasPermission(actor, permission)) throw forbidden();
}

/** 400 for a status the report does not offer (the query schema knows only all statuses). */
export function assertFiltersFit(report: ReportDefinition, filters: ReportFilters): void {
  if (filters.status && !(report.statuses ?? []).includes(filters.status))
    throw badRequest('Some filters are invalid.', { 'filter.status': 'Choose a status from the list.' });
}

export async function reportContext(db: Db, actor: Actor): Promise<Omit<ReportContext, 'db'>> {
  const today = dateInTimeZone(new Date(), TIME_ZONE);
  // Read outside the report's transaction: the configuration cache serves reads on the pool only.
  return { actor, today, holidays: await loadHolidaySets(db, today) };
}

/**
 * The period a report opens on: the last 12 months up to today, in the organisation's time zone
 * (a report that opened empty told a new user nothing).
 */
export function defaultPeriod(now = new Date()): { from: string; to: string } {
  const to = dateInTimeZone(now, TIME_ZONE);
  const from = new Date(`${to}T00:00:00Z`);
  from.setUTCFullYear(from.getUTCFullYear() - 1);
  from.setUTCDate(from.getUTCDate() + 1);
  return { from: from.toISOString().slice(0, 10), to };
}

export async function getReportView(
  db: Db,
  actor: Actor,
  report: ReportDefinition,
  features: Features,
): Promise<ReportView> {
  assertMayRun(actor, report, features);
  const granted = reportScopes(actor);
  const within = (path: string) => granted.some((scope) => isWithinScope(path, scope));
  const scopes = new Map<string, string>();
  for (const entry of await listScopeEntries(db))
    if (within(entry.scopePath)) scopes.set(entry.scopePath, entry.name);
  for (const scope of granted) if (!scopes.has(scope)) scopes.set(scope, scope);
  return {
    $type: 'report',
    title: report.title,
    report: report.name,
    path: report.path,
    filters: [...report.filters],
    statuses: [...(report.statuses ?? [])],
    columns: report.columns,
    scopes: [...scopes].sort(([a], [b]) => a.localeCompare(b)).map(([path, name]) => ({ path, name })),
    taskTypes: [...WORKFLOW_TASK_TYPES],
    currencies: CURRENCIES.map((c) => c.code),
    defaultPeriod: defaultPeriod(),
  };
}

export async function runReport(
  db: Db,
  actor: Actor,
  report: ReportDefinition,
  filters: ReportFilters,
  features: Features,
): Promise<ReportAnswer> {
  assertMayRun(actor, report, features);
  assertFiltersFit(report, filters);
  const ctx = await reportContext(db, actor);
  const summary = await inReportSnapshot(db, (trx) => report.summary({ ...ctx, db: trx }, filters));
  const rows = withRatios(report.columns, summary.rows);
  return {
    report: report.name,
    columns: report.columns,
    rows,
    totals: totalsOf(report.columns, rows),
    currencyTotals: totalsPerCurrency(report.columns, rows),
    chart: rows.length === 0 ? null : summary.chart,
    message: rows.length === 0 ? EMPTY_REPORT_MESSAGE : null,
  };
}
