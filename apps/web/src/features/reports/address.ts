import { REPORT_FILTERS, type ReportAnswer } from '@dossier/core';

// A report's Run Report form as it travels: in the address (so a report can be shared, and the
// back button or a reload runs it again) and in the query of GET {path}/filter and of the export.
// Each filter is `filter.<name>`, as the menu's /reports/tasks/active?filter.date=triggeredAt;
// `run=1` marks an address written by a run, so even a report over all dates runs again from it.

export const FILTER_NAMES = REPORT_FILTERS;
export type FilterName = (typeof FILTER_NAMES)[number];
export type Filters = Record<FilterName, string>;

export const DATE_BASES = ['triggeredAt', 'dueAt'] as const;

export type { ReportAnswer };

/**
 * The filters of the report's form found in an address (others are left out); date defaults. An
 * address that no run wrote and that names no period (the menu's link) gets the default period, so
 * a report opens on the last 12 months; after a run the address is taken as it is (a run over all
 * dates stays one).
 */
export function filtersFromSearch(
  search: string,
  offered: readonly FilterName[],
  defaultPeriod?: { from: string; to: string },
): Filters {
  const q = new URLSearchParams(search);
  const filters = Object.fromEntries(FILTER_NAMES.map((n) => [n, ''])) as Filters;
  for (const name of offered) filters[name] = q.get(`filter.${name}`)?.trim() ?? '';
  if (offered.includes('date') && !filters.date) filters.date = DATE_BASES[0];
  const namesPeriod = q.has('filter.from') || q.has('filter.to');
  if (defaultPeriod && q.get('run') !== '1' && !namesPeriod) {
    if (offered.includes('from')) filters.from = defaultPeriod.from;
    if (offered.includes('to')) filters.to = defaultPeriod.to;
  }
  return filters;
}

/** The query of a run: the filled filters the report offers, in the form's order. */
export function queryOf(filters: Filters, offered: readonly FilterName[]): URLSearchParams {
  const q = new URLSearchParams();
  for (const name of FILTER_NAMES)
    if (offered.includes(name) && filters[name]) q.set(`filter.${name}`, filters[name]);
  return q;
}

/** The export's address: the report's path with the filters of the last run and export=csv. */
export function exportHref(path: string, query: URLSearchParams): string {
  const q = new URLSearchParams(query);
  q.set('export', 'csv');
  return `${path}?${q}`;
}

/** Field errors of a 400 (`filter.from` …) by filter name. */
export function fieldErrorsByFilter(fields: Record<string, string> | undefined): Partial<Filters> {
  const errors: Partial<Filters> = {};
  for (const [key, message] of Object.entries(fields ?? {})) {
    const name = key.replace(/^filter\./, '') as FilterName;
    if ((FILTER_NAMES as readonly string[]).includes(name)) errors[name] = message;
  }
  return errors;
}

/**
 * The server marks a range whose end is before its start at To; when From was the date changed
 * last, the mark moves to From (in words about From), and To, itself valid, shows nothing.
 */
export function rangeAtChangedDate(
  errors: Partial<Filters>,
  filters: Filters,
  changed: 'from' | 'to',
  t: (key: string) => string,
): Partial<Filters> {
  const rangeRefused = errors.to !== undefined && filters.from && filters.to && filters.from > filters.to;
  if (!rangeRefused || changed === 'to' || errors.from !== undefined) return errors;
  const { to: _valid, ...rest } = errors;
  return { ...rest, from: t('reports.startAfterEnd') };
}

export function writeAddress(query: URLSearchParams): void {
  const address = new URLSearchParams(query);
  address.set('run', '1');
  window.history.replaceState(window.history.state, '', `${window.location.pathname}?${address}`);
}
