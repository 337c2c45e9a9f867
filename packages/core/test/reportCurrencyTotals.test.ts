import { describe, expect, it } from 'vitest';
import { type ReportColumn, totalsPerCurrency } from '../src/reports/columns.js';

// Paid Invoices across currencies (issue 23 item 6): the totals row cannot add dollars to euros, so
// each currency gets a totals row of its own.

const columns: ReportColumn[] = [
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

describe('totalsPerCurrency', () => {
  it('totals each currency of a mixed table on its own', () => {
    const rows = [
      { scope: '/org/acme/', currency: 'AUD', invoices: 2, amount: 3000, averageAmount: 1500 },
      { scope: '/org/globex/', currency: 'USD', invoices: 1, amount: 2000, averageAmount: 2000 },
      { scope: '/org/globex/', currency: 'AUD', invoices: 1, amount: 600, averageAmount: 600 },
    ];
    expect(totalsPerCurrency(columns, rows)).toEqual([
      { scope: null, currency: 'AUD', invoices: 3, amount: 3600, averageAmount: 1200 },
      { scope: null, currency: 'USD', invoices: 1, amount: 2000, averageAmount: 2000 },
    ]);
  });

  it('adds nothing when there is one currency or no amounts at all', () => {
    const one = [{ scope: '/org/acme/', currency: 'AUD', invoices: 1, amount: 5, averageAmount: 5 }];
    expect(totalsPerCurrency(columns, one)).toEqual([]);
    expect(totalsPerCurrency([{ key: 'requests', kind: 'count' }], [{ requests: 1 }])).toEqual([]);
  });
});
