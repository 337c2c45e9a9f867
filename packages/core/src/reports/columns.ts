// Report summary tables. A column is an id
// (the row's group label), a count, an average weighted by a count column, a ratio of two count
// columns, or a currency amount in minor units. Averages carry a unit, which is how the KPI columns
// of the request page appear: business days, business days less pended, calendar days, days pended
// internal / external. The totals row is computed from the rows by the same rules, so a weighted
// average's total is the average over all underlying items, not the mean of the row averages.

export const REPORT_NAMES = [
  'accessLog',
  'activeTasks',
  'closedRequests',
  'completedTasks',
  'openRequests',
  'paidInvoices',
  'requestResults',
  'users',
] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

export const AVERAGE_UNITS = [
  'businessDays',
  'businessDaysLessPended',
  'calendarDays',
  'daysPendedInternal',
  'daysPendedExternal',
  'currency',
] as const;
export type AverageUnit = (typeof AVERAGE_UNITS)[number];

export type ReportColumn =
  | { key: string; kind: 'id' }
  | { key: string; kind: 'count' }
  | { key: string; kind: 'currency'; currencyKey: string }
  // `| undefined`: as the contract's reportColumnSchema parses it (zod's optional).
  | { key: string; kind: 'average'; weightedBy: string; unit: AverageUnit; currencyKey?: string | undefined }
  | { key: string; kind: 'ratio'; numerator: string; denominator: string };

export type ReportCell = string | number | null;
export type ReportRow = Record<string, ReportCell>;

/** A bar chart: one bar per category, split into stacked series. */
export interface ReportChart {
  title: string;
  categories: string[];
  series: { key: string; values: number[] }[];
}

export interface ReportAnswer {
  report: ReportName;
  columns: ReportColumn[];
  rows: ReportRow[];
  totals: ReportRow | null;
  /**
   * One totals row per currency when the rows hold more than one (their amounts cannot be added
   * into the one totals row); empty otherwise.
   */
  currencyTotals: ReportRow[];
  chart: ReportChart | null;
  /** Set when there are no rows: the spec's wording. */
  message: string | null;
}

export const EMPTY_REPORT_MESSAGE = 'The report generated an empty result set.';
/** An export holds at most this many rows. */
export const REPORT_EXPORT_CAP = 10_000;
/** The last line of an export that reached the cap (the page says so before the export, too). */
export const REPORT_EXPORT_CUT_NOTICE =
  'This export stopped at 10,000 rows; more rows match. Narrow the filter to export the rest.';

const num = (v: ReportCell | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** a / b, or null when b is 0 (no items: no ratio, rather than a misleading 0 %). */
export function ratioOf(a: number, b: number): number | null {
  return b === 0 ? null : a / b;
}

/**
 * The rows with their ratio cells filled in from the rows' own counts, where a report's query left
 * them out: the table shows every ratio column, and the totals row takes them the same way.
 */
export function withRatios(columns: readonly ReportColumn[], rows: readonly ReportRow[]): ReportRow[] {
  const ratios = columns.filter((c): c is Extract<ReportColumn, { kind: 'ratio' }> => c.kind === 'ratio');
  return rows.map((row) => {
    const filled = { ...row };
    for (const c of ratios) filled[c.key] ??= ratioOf(num(row[c.numerator]), num(row[c.denominator]));
    return filled;
  });
}

/**
 * The totals row: counts and amounts add up, weighted averages are re-weighted by their count
 * column's total, ratios are taken of the totals. A currency total exists only when every row is in
 * the same currency (adding dollars to euros means nothing). Null for no rows.
 */
export function totalsOf(columns: readonly ReportColumn[], rows: readonly ReportRow[]): ReportRow | null {
  if (rows.length === 0) return null;
  const totals: ReportRow = {};
  const sum = (key: string) => rows.reduce((s, r) => s + num(r[key]), 0);
  const singleCurrency = (key: string) => {
    const codes = new Set(rows.map((r) => r[key]));
    return codes.size === 1 ? (rows[0]?.[key] ?? null) : null;
  };
  for (const c of columns) {
    if (c.kind === 'id') totals[c.key] = null;
    else if (c.kind === 'count') totals[c.key] = sum(c.key);
    else if (c.kind === 'currency') {
      const code = singleCurrency(c.currencyKey);
      totals[c.currencyKey] = code;
      totals[c.key] = code === null ? null : sum(c.key);
    } else if (c.kind === 'average') {
      if (c.currencyKey && singleCurrency(c.currencyKey) === null) {
        totals[c.key] = null;
        continue;
      }
      const weight = sum(c.weightedBy);
      const weighted = rows.reduce((s, r) => s + num(r[c.key]) * num(r[c.weightedBy]), 0);
      totals[c.key] = weight === 0 ? null : weighted / weight;
    } else totals[c.key] = ratioOf(sum(c.numerator), sum(c.denominator));
  }
  return totals;
}

/**
 * The totals row of each currency's rows, in the order the currencies first appear, when the rows
 * hold more than one currency; empty when they hold one or none (the totals row says it all).
 */
export function totalsPerCurrency(columns: readonly ReportColumn[], rows: readonly ReportRow[]): ReportRow[] {
  const money = columns.find((c): c is Extract<ReportColumn, { kind: 'currency' }> => c.kind === 'currency');
  if (!money) return [];
  const groups = new Map<ReportCell, ReportRow[]>();
  for (const row of rows) {
    const code = row[money.currencyKey] ?? null;
    groups.set(code, [...(groups.get(code) ?? []), row]);
  }
  if (groups.size < 2) return [];
  return [...groups.values()].map((group) => totalsOf(columns, group) as ReportRow);
}

/** An amount in minor units as a plain decimal (cents to dollars), as written to a CSV file. */
export function minorUnitsToDecimal(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(Math.round(minor));
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** How a cell of a column is shown (and exported): days to one decimal, ratios as percentages. */
export function formatReportCell(column: ReportColumn, row: ReportRow, locale = 'en-AU'): string {
  const value = row[column.key];
  if (value === null || value === undefined) return '';
  if (column.kind === 'id') return String(value);
  if (typeof value !== 'number') return String(value);
  if (column.kind === 'count') return value.toLocaleString(locale);
  if (column.kind === 'ratio') return `${(value * 100).toFixed(1)}%`;
  const currency = column.currencyKey;
  if (currency) {
    const code = row[currency];
    const amount = value / 100;
    if (typeof code !== 'string') return minorUnitsToDecimal(value);
    // The code rather than a symbol: "$" alone cannot tell Australian from US dollars in one table.
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code,
      currencyDisplay: 'code',
    }).format(amount);
  }
  return value.toFixed(1);
}
