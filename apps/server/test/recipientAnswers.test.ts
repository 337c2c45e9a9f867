import { beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowEngine } from '../src/features/workflow/engine.js';
import { createUser, type TestContext, XHR } from './helpers.js';
import { answer, cookie, enter, issued, upload, useRecipientWorld, world } from './support/recipientWorld.js';
import { get } from './support/resultsInvoices.js';

// Issue 34: what the recipient sends on its page lands as staff's correspondence, results awaiting
// QA and invoices with a Pay Invoice task; other bank details go through the sensitive payee change;
// its answers raise tasks or move the follow-up.

useRecipientWorld();
let t: TestContext;
let engine: WorkflowEngine;
beforeAll(() => {
  ({ t, engine } = world);
});

describe('what the recipient sends', () => {
  it('records land awaiting QA, invisible to the sender; an invoice lands with a Pay Invoice task', async () => {
    const { n, token, passcode } = await issued();
    const { cookie: c } = await enter(token, passcode);
    const one = await upload(token, c, 'records part 1.pdf');
    expect(one.statusCode, one.body).toBe(200);
    const two = await upload(token, c, 'records part 2.pdf');
    const bill = await upload(token, c, 'invoice.pdf');
    // The checks of every upload: an executable name, content that is not what it says.
    expect((await upload(token, c, 'tool.exe')).statusCode).toBe(400);
    expect((await upload(token, c, 'fake.pdf', Buffer.from('just text'))).statusCode).toBe(400);

    const records = await answer(token, c, {
      kind: 'records',
      files: [one.json().key, two.json().key],
      complete: true,
    });
    expect(records.statusCode, records.body).toBe(200);
    // A file goes into one answer only.
    expect(
      (await answer(token, c, { kind: 'records', files: [one.json().key], complete: true })).statusCode,
    ).toBe(400);
    const bad = await answer(token, c, {
      kind: 'invoice',
      file: bill.json().key,
      amountExclusiveTax: 10000,
      tax: 1000,
      amount: 12000,
      currency: 'AUD',
      payee: { name: 'Northside' },
    });
    expect(bad.json().fields.amount).toBe('The amount must equal the amount excl. tax plus the tax.');
    const invoice = await answer(token, c, {
      kind: 'invoice',
      file: bill.json().key,
      amountExclusiveTax: 10000,
      tax: 1000,
      amount: 11000,
      currency: 'AUD',
      payee: { name: 'Northside Medical Centre', bankAccount: '062-000 1234 5678' },
    });
    expect(invoice.statusCode, invoice.body).toBe(200);
    const message = await answer(token, c, { kind: 'message', message: 'Call me if anything is missing.' });
    expect(message.statusCode).toBe(200);
    expect(message.json().request.sent).toHaveLength(6); // three uploads, three answers
    await engine.drain();

    const staff = (await get(t, cookie.handler, `/requests/${n}`)).json();
    expect(staff.results).toHaveLength(2);
    expect(staff.results.every((r: { qualityAssuredAt?: string }) => !r.qualityAssuredAt)).toBe(true);
    expect(staff.invoices).toHaveLength(1);
    expect(staff.invoices[0]).toMatchObject({ amount: 11000, currency: 'AUD' });
    const types = staff.tasks
      .filter((x: { completedAt?: string }) => !x.completedAt)
      .map((x: { type: string }) => x.type);
    expect(types.filter((x: string) => x === 'qualityAssureResult')).toHaveLength(2);
    expect(types).toContain('payInvoice');
    const via = staff.correspondence.filter((e: { viaRecipientPage?: boolean }) => e.viaRecipientPage);
    expect(via.map((e: { subject: string }) => e.subject)).toEqual([
      "Message (via the recipient's page)",
      "Invoice (via the recipient's page)",
      "Records (via the recipient's page)",
    ]);
    const summaries = staff.history.map((h: { summary: string }) => h.summary).join('\n');
    expect(summaries).toContain('The recipient uploaded records part 1.pdf');
    expect(summaries).toMatch(
      /The recipient sent 2 record files \(complete\) on the recipient's page from [\d.:a-f]+\./,
    );

    // The sender sees neither the results before QA, nor the invoice, nor what the recipient wrote.
    const sender = (await get(t, cookie.submitter, `/requests/${n}`)).json();
    expect(sender.results).toHaveLength(0);
    expect(sender.invoices).toHaveLength(0);
    for (const e of sender.correspondence.filter((x: { kind: string }) => x.kind === 'message')) {
      expect(e.withheld).toBe(true);
      expect(e.attachments).toEqual([]);
    }
    const file = await t.app.inject({
      url: `/files/${one.json().key}`,
      headers: { ...XHR, cookie: cookie.submitter },
    });
    expect(file.statusCode).toBe(403);
    expect(JSON.stringify(sender.history)).not.toContain('recipient');
  });

  it('other bank details for a directory payee go through the sensitive payee change', async () => {
    await createUser(t.db, { id: 'rootadmin', roles: [{ role: 'c:roles:admin', scope: '/' }] });
    const payee = await t.db
      .insertInto('payees')
      .values({ name: 'Northside Medical Centre', bank_account: '062-000 1111 1111', currency: 'AUD' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { n, token, passcode } = await issued();
    const { res, cookie: c } = await enter(token, passcode);
    expect(res.json().request.payees).toEqual([{ payeeId: payee.id, name: 'Northside Medical Centre' }]);
    const bill = await upload(token, c, 'invoice.pdf');
    const sent = await answer(token, c, {
      kind: 'invoice',
      file: bill.json().key,
      amountExclusiveTax: 5000,
      tax: 500,
      amount: 5500,
      currency: 'AUD',
      payeeId: payee.id,
      payee: { name: '', bankAccount: '062-999 2222 2222' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const row = await t.db
      .selectFrom('payees')
      .selectAll()
      .where('id', '=', payee.id)
      .executeTakeFirstOrThrow();
    expect(row.bank_account).toBe('062-999 2222 2222');
    const history = await t.db
      .selectFrom('events')
      .select('payload')
      .where('aggregate_type', '=', 'payee')
      .where('aggregate_id', '=', payee.id)
      .execute();
    expect(history[0]?.payload).toMatchObject({
      changes: { bankAccount: { from: '062-000 1111 1111', to: '062-999 2222 2222' } },
      source: 'recipientPage',
      requestNumber: n,
    });
    const told = await t.db
      .selectFrom('notifications')
      .select('text')
      .where('user_id', '=', 'rootadmin')
      .execute();
    expect(told.map((x) => x.text)).toContain(
      `The recipient of request ${n} changed the bank account of the payee Northside Medical Centre on the recipient's page.`,
    );
    const invoice = await t.db
      .selectFrom('request_invoices')
      .select('notice')
      .where('request_number', '=', n)
      .executeTakeFirstOrThrow();
    expect(invoice.notice).toContain('the recipient changed its bank account in the directory');
    // The same details again change nothing more.
    const again = await upload(token, c, 'invoice2.pdf');
    await answer(token, c, {
      kind: 'invoice',
      file: again.json().key,
      amountExclusiveTax: 5000,
      tax: 500,
      amount: 5500,
      currency: 'AUD',
      payeeId: payee.id,
      payee: { name: '', bankAccount: '062-999 2222 2222' },
    });
    expect(
      await t.db
        .selectFrom('events')
        .select('id')
        .where('aggregate_type', '=', 'payee')
        .where('aggregate_id', '=', payee.id)
        .execute(),
    ).toHaveLength(1);
  });

  it('no records and need more information raise a task; ready by moves the follow-up', async () => {
    const { n, token, passcode } = await issued();
    const { cookie: c } = await enter(token, passcode);
    await engine.drain();
    expect((await answer(token, c, { kind: 'needMoreInformation', message: '' })).json().fields.message).toBe(
      'Say what you need.',
    );
    expect(
      (
        await answer(token, c, {
          kind: 'needMoreInformation',
          message: 'The authority is older than a year.',
        })
      ).statusCode,
    ).toBe(200);
    const readyBy = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    expect((await answer(token, c, { kind: 'readyBy', date: readyBy })).statusCode).toBe(200);
    await engine.drain();
    const tasks = await t.db
      .selectFrom('tasks')
      .select(['type', 'notice', 'due_at', 'completed_at'])
      .where('request_number', '=', n)
      .execute();
    const exception = tasks.find((x) => x.type === 'exception');
    expect(exception?.notice).toContain('The authority is older than a year.');
    const followUp = tasks.find((x) => x.type === 'followUp' && !x.completed_at);
    // The next business day after the date the recipient gave (a weekend or holiday moves it on).
    const due = followUp?.due_at?.toISOString().slice(0, 10) ?? '';
    expect(due > readyBy).toBe(true);
    expect(
      new Date(`${due}T00:00:00Z`).getTime() - new Date(`${readyBy}T00:00:00Z`).getTime(),
    ).toBeLessThanOrEqual(5 * 86_400_000);
  });
});
