// CSV for report exports (RFC 4180: comma separated, CRLF line ends, a field with a comma, quote
// or line break is quoted with its quotes doubled). Text that a spreadsheet would read as a formula
// (starting with =, +, -, @, or a tab or carriage return that some programs skip first) gets a
// leading apostrophe, so an applicant named "=HYPERLINK(...)" stays text when the file is opened.
// Numbers are never neutralised, whether written as numbers or as plain decimal text (an amount in
// major units such as -12.50): a negative amount must stay a number, and a bare number runs nothing.

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

export function neutraliseCsvText(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? neutraliseCsvText(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(values: readonly (string | number | boolean | null | undefined)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The file name of an export: the report's name and the day it ran, e.g. closed-requests-2026-11-22.csv. */
export function reportFileName(report: string, date: string): string {
  const slug = report
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-');
  return `${slug}-${date}.csv`;
}
