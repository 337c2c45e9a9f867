import { dateInTimeZone, REPORT_EXPORT_CAP, REPORT_EXPORT_CUT_NOTICE } from '@dossier/core';
import { sql } from 'kysely';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS } from '../src/features/reports/index.js';
import { createTestContext, type TestContext } from './helpers.js';
import { parseCsv } from './support/csv.js';
import { getAs, HYPERLINK, RANGE, type ReportData, seedReportData } from './support/reports.js';

// The CSV export of the reports (export=csv on the page path and on /filter): header, one line per
// item, formula neutralisation, the 10,000-row cap (and the line saying so), the byte-order mark,
// date-times in the organisation's zone, the file name; and the isolation of scopes: a
// manager of Globex never sees Acme's data in any report's rows, totals, chart or export.

let t: TestContext;
let d: ReportData;

beforeAll(async () => {
  t = await createTestContext();
  d = await seedReportData(t);
});
afterAll(async () => {
  await t?.close();
});

const lines = (body: string) => body.split('\r\n').filter((l) => l.length > 0);

async function csv(who: keyof ReportData['cookies'], url: string) {
  const res = await getAs(t, d.cookies[who], url);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  // A UTF-8 byte-order mark first, so that Excel reads the names right.
  expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  return { res, lines: lines(res.body.slice(1)) };
}

describe('CSV export', () => {
  it('writes a header and one line per closed request, newest first, named after report and day', async () => {
    const { res, lines: rows } = await csv('admin', `/reports/requests/closed/filter?${RANGE}&export=csv`);
    const today = dateInTimeZone(new Date());
    expect(res.headers['content-disposition']).toBe(`attachment; filename="closed-requests-${today}.csv"`);
    expect(rows[0]).toBe(
      'Request Number,Scope,Applicant,Recipient,Submitted,Closed,Calendar Days,Business Days,' +
        'Business Days Less Pended,Days Pended Internal,Days Pended External',
    );
    expect(rows.slice(1).map((l) => l.split(',')[0])).toEqual([d.n.a1, d.n.a2, d.n.g1]);
    // a1: its applicant neutralised (and quoted for its quotes and comma), then its KPI figures.
    expect(rows[1]).toBe(
      `${d.n.a1},/org/acme/,"'${HYPERLINK.replaceAll('"', '""')}",Northside Medical Centre,` +
        '2026-06-04,2026-06-10,6,3,2,0,1',
    );
    // The table groups by scope: its counts are the export's lines per scope.
    const table = (await getAs(t, d.cookies.admin, `/reports/requests/closed/filter?${RANGE}`)).json();
    for (const row of table.rows as { scope: string; requests: number }[]) {
      expect(rows.filter((l) => l.split(',')[1] === row.scope)).toHaveLength(row.requests);
    }
  });

  it('answers the same file on the page path, and writes amounts as decimals', async () => {
    const page = await csv('admin', `/reports/requests/closed?${RANGE}&export=csv`);
    const filter = await csv('admin', `/reports/requests/closed/filter?${RANGE}&export=csv`);
    expect(page.res.body).toBe(filter.res.body);
  });

  it('gives finance the payee, method and amounts excluding tax of each payment, times in Sydney', async () => {
    const invoices = await csv('admin', `/reports/invoices/paid?${RANGE}&filter.currency=AUD&export=csv`);
    const [header, ...records] = parseCsv(invoices.res.body.slice(1));
    assert(header);
    expect(header).toEqual([
      'Invoice Id',
      'Request Number',
      'Scope',
      'Currency',
      'Amount',
      'Tax',
      'Amount Excl. Tax',
      'Added',
      'Paid',
      'Business Days To Pay',
      'Payment Id',
      'Payment Amount',
      'Balance',
      'Payee',
      'Payee Reference',
      'Payment Method',
      'Payment Amount Excl. Tax',
      'Payment Tax',
    ]);
    const rows = records.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
    expect(rows.map((r) => r['Request Number'])).toEqual([d.n.a1, d.n.a2]);
    expect(rows[0]).toMatchObject({
      Currency: 'AUD',
      Amount: '123.45',
      Tax: '11.22',
      // Paid at 10:00 in Sydney (00:00 UTC): the file says 10:00, as the page does.
      Added: '2026-06-01 10:00',
      Paid: '2026-06-10 10:00',
      'Payment Amount': '123.45',
      Balance: '0.00',
      Payee: 'Zoë Ångström Pty Ltd',
      'Payment Method': 'Cheque',
      'Payment Amount Excl. Tax': '112.23',
      'Payment Tax': '11.22',
    });
    expect(rows[1]).toMatchObject({ Payee: 'Payee', 'Payment Amount': '50.00', 'Payment Tax': '4.55' });
    // The non-ASCII name is in the bytes as UTF-8, after the byte-order mark.
    expect(invoices.res.rawPayload.includes(Buffer.from('Zoë Ångström', 'utf8'))).toBe(true);
    // A file that was not cut ends with its last payment.
    expect(invoices.res.body).not.toContain(REPORT_EXPORT_CUT_NOTICE);
  });

  it('refuses bad filters on either path (400, field by field)', async () => {
    for (const url of [
      '/reports/requests/closed?filter.from=2026-02-30&export=csv',
      '/reports/requests/closed/filter?filter.from=2026-02-30&export=csv',
    ]) {
      const res = await getAs(t, d.cookies.admin, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().fields).toEqual({ 'filter.from': 'Enter a valid date.' });
    }
    const other = await getAs(t, d.cookies.admin, '/reports/requests/closed?export=pdf');
    expect(other.statusCode).toBe(400);
    expect(other.json().fields).toEqual({ export: 'The only export is csv.' });
  });

  it('stops at 10,000 lines after the header', async () => {
    // 10,050 completed tasks of a scope of their own, written in one statement.
    await sql`insert into tasks (type, subject, scope, triggered_at, due_at, completed_at)
      select 'followUp', 'Bulk ' || i, '/org/cap/', timestamptz '2026-05-04 10:00+10' + i * interval '1 minute',
        timestamptz '2026-05-20 10:00+10', timestamptz '2026-05-05 10:00+10' + i * interval '1 minute'
      from generate_series(1, 10050) i`.execute(t.db);
    const { lines: rows } = await csv('admin', '/reports/tasks/completed?filter.scope=/org/cap/&export=csv');
    // The header, 10,000 tasks, and a last line saying the file was cut.
    expect(rows).toHaveLength(REPORT_EXPORT_CAP + 2);
    expect(rows[0]?.startsWith('Task Id,Task Type,')).toBe(true);
    expect(parseCsv(`${rows.at(-1)}\r\n`)).toEqual([[REPORT_EXPORT_CUT_NOTICE]]);
    // Newest first: the last one completed heads the list, at its time in Sydney (23:30 UTC).
    expect(rows[1]).toContain(',2026-05-12 09:30,');
    // The summary still counts all of them.
    const table = (
      await getAs(t, d.cookies.admin, '/reports/tasks/completed/filter?filter.scope=/org/cap/')
    ).json();
    expect(table.totals.completed).toBe(10050);
  });
});

describe('scope isolation', () => {
  const ACME = ['/org/acme/', 'hacme', 'HYPERLINK'];
  const acmeNumbers = () => [d.n.a1, d.n.a2, d.n.a3, d.n.o1, d.n.o2];

  it('never shows a Globex manager an Acme row, count, total, chart or export line', async () => {
    for (const report of REPORTS) {
      const answer = await getAs(t, d.cookies.globex, `${report.path}/filter?${RANGE}`);
      expect(answer.statusCode, report.name).toBe(200);
      const exported = await getAs(t, d.cookies.globex, `${report.path}/filter?${RANGE}&export=csv`);
      expect(exported.statusCode, report.name).toBe(200);
      for (const text of [answer.body, exported.body]) {
        for (const needle of [...ACME, ...acmeNumbers()]) expect(text, report.name).not.toContain(needle);
      }
      // Choosing Acme's scope gives nothing rather than Acme's data.
      const chosen = await getAs(
        t,
        d.cookies.globex,
        `${report.path}/filter?${RANGE}&filter.scope=/org/acme/`,
      );
      expect(chosen.json().rows, report.name).toEqual([]);
    }
  });

  it('gives the Globex manager the same figures as the administrator gets for Globex', async () => {
    // The Access Log counts this file's own reads (its exports), not the fixture's data.
    for (const report of REPORTS.filter((r) => r.name !== 'users' && r.name !== 'accessLog')) {
      const mine = (await getAs(t, d.cookies.globex, `${report.path}/filter?${RANGE}`)).json();
      const admin = (await getAs(t, d.cookies.admin, `${report.path}/filter?${RANGE}`)).json();
      const adminAll = JSON.stringify(admin.totals);
      const adminGlobex = (
        await getAs(t, d.cookies.admin, `${report.path}/filter?${RANGE}&filter.scope=/org/globex/`)
      ).json();
      expect(mine.rows, report.name).toEqual(adminGlobex.rows);
      expect(mine.totals, report.name).toEqual(adminGlobex.totals);
      expect(mine.chart, report.name).toEqual(adminGlobex.chart);
      // The administrator's own totals include Acme: the comparison is not empty-handed.
      expect(JSON.stringify(mine.totals), report.name).not.toBe(adminAll);
    }
  });

  it('lists only the users of Globex in the users report and its export', async () => {
    const answer = (await getAs(t, d.cookies.globex, `/reports/users/filter?${RANGE}`)).json();
    expect(answer.rows.map((r: { userId: string }) => r.userId)).toEqual(['hglobex', 'rglobex']);
    expect(answer.rows[0]).toMatchObject({ active: 1, completed: 1, onTime: 1, overdue: 0 });
    const { lines: rows } = await csv('globex', `/reports/users?${RANGE}&export=csv`);
    expect(rows.slice(1).map((l) => l.split(',')[0])).toEqual(['hglobex', 'rglobex']);
  });
});
