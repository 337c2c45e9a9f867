// The server process runs in a zone of its own here, neither UTC nor the organisation's: nothing a
// document, mail or export says may depend on it. Set before anything reads a date.
process.env.TZ = 'America/Los_Angeles';

import { richTextFromParagraphs, TRAINABLE_TASK_TYPES } from '@dossier/core';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { WorkflowEngine } from '../src/features/workflow/engine.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { pdfText } from './support/pdf.js';
import { insertTestRequest } from './support/requests.js';
import { get, post, uploadPdf } from './support/resultsInvoices.js';
import { configureScope, mailAbout, train } from './support/workflow.js';

// Issue 23 items 8 and 9: documents and mails follow the one time-zone rule (the organisation's
// zone, Australia/Sydney), and every link in a mail is absolute even without PUBLIC_URL.

let t: TestContext;
let engine: WorkflowEngine;
let handler: string;

beforeAll(async () => {
  // No PUBLIC_URL: links take the address the app is served on.
  t = await createTestContext({ publicUrl: undefined, port: 3456, host: '0.0.0.0' });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await train(t.db, 'handler', TRAINABLE_TASK_TYPES);
  await createUser(t.db, {
    id: 'submitter',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  handler = await signIn(t.app, 'handler');
  engine = new WorkflowEngine(t.db, { live: t.live, log: { warn: () => undefined }, config: t.config });
});
afterAll(async () => {
  await engine.stop();
  await t.close();
});

// A due date must not be in the past: the next 30 November at least a week away, always in Sydney's
// daylight saving time (AEDT).
const dueYear = (() => {
  const now = new Date();
  const year = now.getUTCFullYear();
  return Date.UTC(year, 10, 23) > now.getTime() ? year : year + 1;
})();

const newRequest = () =>
  insertTestRequest(t.db, { scope: '/org/acme/', status: 'open', submittedBy: 'submitter' });

describe('dates on documents', () => {
  it('runs in a zone other than UTC and Sydney', () => {
    expect(new Date('2026-11-24T22:00:00Z').getTimezoneOffset()).toBe(480);
  });

  it('prints the day of a payment in Sydney on the remittance advice', async () => {
    const n = await newRequest();
    const key = await uploadPdf(t, handler, 'invoice.pdf');
    const added = await post(t, handler, `/requests/${n}/actions/addInvoice`, {
      file: { key },
      tags: { invoiceType: 'Records fee' },
    });
    expect(added.statusCode, added.body).toBe(200);
    const url = `/requests/${n}/invoices/${added.json().invoiceId}/actions`;
    const paid = await post(t, handler, `${url}/pay`, {
      payeeName: 'Northside Medical Centre',
      method: 'cheque',
      amountExclusiveTax: 10_000,
      tax: 1_000,
      amount: 11_000,
      currency: 'AUD',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    // Paid at 9 am on 25 Nov in Sydney: 24 Nov in UTC, and 24 Nov in this process's zone.
    await t.db
      .updateTable('invoice_payments')
      .set({ paid_at: new Date('2026-11-24T22:00:00Z') })
      .where('invoice_id', '=', added.json().invoiceId)
      .execute();
    const sent = await post(t, handler, `${url}/sendRemittanceAdvice`, {
      email: 'accounts@northside.example',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const pdf = await get(t, handler, `/files/${sent.json().invoice.remittanceAdvice.key}`);
    expect(pdf.statusCode).toBe(200);
    const stdout = await pdfText(pdf.rawPayload);
    expect(stdout).toMatch(/Date paid\s+25 Nov 2026/);
    expect(stdout).not.toContain('2026-11-24');
  });

  it('names a due date added by hand in the history in Sydney time', async () => {
    const n = await newRequest();
    const res = await post(t, handler, `/requests/${n}/actions/addTask`, {
      type: 'followUp',
      dueDate: `${dueYear}-11-30`,
      dueTime: '14:30',
      notice: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    const task = await t.db
      .selectFrom('tasks')
      .select('due_at')
      .where('request_number', '=', n)
      .where('type', '=', 'followUp')
      .executeTakeFirstOrThrow();
    expect(task.due_at?.toISOString()).toBe(`${dueYear}-11-30T03:30:00.000Z`);
    const history = (await get(t, handler, `/requests/${n}`)).json().history as { summary: string }[];
    expect(history.map((h) => h.summary).join('\n')).toContain(`30 Nov ${dueYear}, 2:30 pm AEDT`);
  });
});

describe('links in mail', () => {
  it('makes the link of "A result of request … is ready" absolute without PUBLIC_URL', async () => {
    const n = await newRequest();
    const key = await uploadPdf(t, handler);
    const added = await post(t, handler, `/requests/${n}/actions/addResult`, {
      file: { key },
      tags: { documentType: 'Medical records' },
    });
    expect(added.statusCode, added.body).toBe(200);
    const id = added.json().resultId;
    const qa = await post(t, handler, `/requests/${n}/results/${id}/actions/qualityAssure`, {
      itemTypes: [],
    });
    expect(qa.statusCode, qa.body).toBe(200);
    await engine.drain();
    const [mail] = await mailAbout(t.db, n);
    assert(mail);
    expect(mail.text).toContain(`A result of request ${n} is ready: open the result (`);
    expect(mail.text).toContain(`(http://localhost:3456/requests/${n}/results/${id})`);
    expect(mail.html).toContain(`http://localhost:3456/requests/${n}/results/${id}`);
    expect(`${mail.text}${mail.html}`).not.toMatch(/[("]\/requests\//);
  });

  it('makes a link a template wrote as a path absolute too', async () => {
    const body = richTextFromParagraphs('A result of request ${request.requestNumber} is ready.');
    body.content.push({
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Help', marks: [{ type: 'link', attrs: { href: '/help' } }] },
        { type: 'text', text: ' and ' },
        {
          type: 'text',
          text: 'elsewhere',
          marks: [{ type: 'link', attrs: { href: 'https://example.org/x' } }],
        },
      ],
    });
    await configureScope(t.db, '/org/acme/', [
      { id: 'resultReady', type: 'templateEntry', data: { usage: 'resultQualityAssured', body } },
    ]);
    invalidateConfigurationCache(t.db);
    const n = await newRequest();
    const key = await uploadPdf(t, handler);
    const added = await post(t, handler, `/requests/${n}/actions/addResult`, {
      file: { key },
      tags: { documentType: 'Medical records' },
    });
    const id = added.json().resultId;
    await post(t, handler, `/requests/${n}/results/${id}/actions/qualityAssure`, { itemTypes: [] });
    await engine.drain();
    const [mail] = await mailAbout(t.db, n);
    assert(mail);
    expect(mail.html).toContain('href="http://localhost:3456/help"');
    expect(mail.html).toContain('href="https://example.org/x"');
    expect(mail.text).toContain('http://localhost:3456/help');
  });
});
