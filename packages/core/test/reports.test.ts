import { describe, expect, it } from 'vitest';
import {
  csvField,
  csvRecord,
  formatReportCell,
  minorUnitsToDecimal,
  neutraliseCsvText,
  type ReportColumn,
  ratioOf,
  reportFileName,
  totalsOf,
  withRatios,
} from '../src/index.js';

// The report rules shared by the server (totals, CSV) and the browser (cell formatting).

// Intl puts a no-break space between the currency code and the amount.
const nbsp = (s: string) => s.replace(/\u00a0/g, ' ');

describe('CSV cells', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","click")', `'=HYPERLINK("http://evil.example","click")`],
    ['+61 2 9000 0000', `'+61 2 9000 0000`],
    ['-2+3', `'-2+3`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['\tcmd', `'\tcmd`],
    ['\rcmd', `'\rcmd`],
  ])('neutralises text a spreadsheet would run: %j', (text, safe) => {
    expect(neutraliseCsvText(text)).toBe(safe);
  });

  it('leaves ordinary text and plain numbers alone, negative amounts included', () => {
    for (const text of ['Jane Citizen', 'a=b', '-12.50', '-7', '42', '2026-11-23']) {
      expect(neutraliseCsvText(text)).toBe(text);
    }
  });

  it('quotes fields with commas, quotes or line breaks and doubles the quotes', () => {
    expect(csvField('Smith, Jane')).toBe('"Smith, Jane"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    // Neutralised first, then quoted: the apostrophe is inside the quotes.
    expect(csvField('=1,2')).toBe(`"'=1,2"`);
  });

  it('writes numbers, booleans and empty cells as they are', () => {
    expect(csvField(-3)).toBe('-3');
    expect(csvField(true)).toBe('true');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('ends each record with CRLF', () => {
    expect(csvRecord(['Request Number', 'Applicant'])).toBe('Request Number,Applicant\r\n');
    expect(csvRecord(['ACM1', '@x', 3, null])).toBe(`ACM1,'@x,3,\r\n`);
  });

  it('names the file after the report and the day', () => {
    expect(reportFileName('closedRequests', '2026-11-23')).toBe('closed-requests-2026-11-23.csv');
    expect(reportFileName('users', '2026-01-02')).toBe('users-2026-01-02.csv');
  });

  it('writes minor units as a decimal amount', () => {
    expect(minorUnitsToDecimal(123456)).toBe('1234.56');
    expect(minorUnitsToDecimal(5)).toBe('0.05');
    expect(minorUnitsToDecimal(-1250)).toBe('-12.50');
    expect(minorUnitsToDecimal(0)).toBe('0.00');
  });
});

const TASK_COLUMNS: ReportColumn[] = [
  { key: 'taskType', kind: 'id' },
  { key: 'completed', kind: 'count' },
  { key: 'onTime', kind: 'count' },
  { key: 'onTimeRatio', kind: 'ratio', numerator: 'onTime', denominator: 'completed' },
  { key: 'businessDays', kind: 'average', weightedBy: 'completed', unit: 'businessDays' },
];

const INVOICE_COLUMNS: ReportColumn[] = [
  { key: 'scope', kind: 'id' },
  { key: 'currency', kind: 'id' },
  { key: 'invoices', kind: 'count' },
  { key: 'amount', kind: 'currency', currencyKey: 'currency' },
  {
    key: 'averageAmount',
    kind: 'average',
    weightedBy: 'invoices',
    unit: 'currency',
    currencyKey: 'currency',
  },
];

describe('totals', () => {
  it('adds counts, re-weights averages by their count column and takes ratios of the totals', () => {
    const totals = totalsOf(TASK_COLUMNS, [
      { taskType: 'followUp', completed: 3, onTime: 3, onTimeRatio: 1, businessDays: 2 },
      { taskType: 'payInvoice', completed: 1, onTime: 0, onTimeRatio: 0, businessDays: 6 },
    ]);
    // (3 × 2 + 1 × 6) / 4 = 3, not the mean of the row averages (4).
    expect(totals).toEqual({ taskType: null, completed: 4, onTime: 3, onTimeRatio: 0.75, businessDays: 3 });
  });

  it('has no totals for no rows and no ratio when nothing was counted', () => {
    expect(totalsOf(TASK_COLUMNS, [])).toBeNull();
    const totals = totalsOf(TASK_COLUMNS, [
      { taskType: 'x', completed: 0, onTime: 0, onTimeRatio: null, businessDays: null },
    ]);
    expect(totals?.onTimeRatio).toBeNull();
    expect(totals?.businessDays).toBeNull();
    expect(ratioOf(1, 0)).toBeNull();
    expect(ratioOf(1, 4)).toBe(0.25);
  });

  it('totals amounts of one currency and leaves mixed currencies untotalled', () => {
    const aud = totalsOf(INVOICE_COLUMNS, [
      { scope: '/org/acme/', currency: 'AUD', invoices: 2, amount: 30000, averageAmount: 15000 },
      { scope: '/org/globex/', currency: 'AUD', invoices: 1, amount: 6000, averageAmount: 6000 },
    ]);
    expect(aud).toMatchObject({ currency: 'AUD', invoices: 3, amount: 36000, averageAmount: 12000 });
    const mixed = totalsOf(INVOICE_COLUMNS, [
      { scope: '/org/acme/', currency: 'AUD', invoices: 2, amount: 30000, averageAmount: 15000 },
      { scope: '/org/acme/', currency: 'USD', invoices: 1, amount: 6000, averageAmount: 6000 },
    ]);
    expect(mixed).toMatchObject({ currency: null, invoices: 3, amount: null, averageAmount: null });
  });
});

/** The list's item at `index`, which the test knows is there. */
function itemAt<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

describe('formatReportCell', () => {
  const id = itemAt(TASK_COLUMNS, 0);
  const count = itemAt(TASK_COLUMNS, 1);
  const ratio = itemAt(TASK_COLUMNS, 3);
  const average = itemAt(TASK_COLUMNS, 4);
  it('shows ids as they are and counts with thousands separators', () => {
    expect(formatReportCell(id, { taskType: 'followUp' })).toBe('followUp');
    expect(formatReportCell(count, { completed: 12345 })).toBe('12,345');
  });

  it('shows ratios as percentages and averages of days to one decimal', () => {
    expect(formatReportCell(ratio, { onTimeRatio: 0.75 })).toBe('75.0%');
    expect(formatReportCell(ratio, { onTimeRatio: 2 / 3 })).toBe('66.7%');
    expect(formatReportCell(average, { businessDays: 3.25 })).toBe('3.3');
  });

  it('shows amounts in major units with the currency code', () => {
    const amount = itemAt(INVOICE_COLUMNS, 3);
    expect(nbsp(formatReportCell(amount, { currency: 'AUD', amount: 123456 }))).toBe('AUD 1,234.56');
    expect(nbsp(formatReportCell(amount, { currency: 'USD', amount: 5 }))).toBe('USD 0.05');
    // A total over mixed currencies has no code: the plain decimal, never a wrong symbol.
    expect(formatReportCell(amount, { currency: null, amount: 1050 })).toBe('10.50');
  });

  it('leaves empty cells empty', () => {
    expect(formatReportCell(ratio, { onTimeRatio: null })).toBe('');
    expect(formatReportCell(count, {})).toBe('');
  });
});

describe('withRatios', () => {
  it('fills a ratio the query left out from the row counts, and keeps one it gave', () => {
    const rows = withRatios(TASK_COLUMNS, [
      { taskType: 'a', completed: 4, onTime: 3 },
      { taskType: 'b', completed: 4, onTime: 3, onTimeRatio: 0.5 },
      { taskType: 'c', completed: 0, onTime: 0 },
    ]);
    expect(rows.map((r) => r.onTimeRatio)).toEqual([0.75, 0.5, null]);
  });
});
