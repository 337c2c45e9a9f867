import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkflowEngine } from '../src/features/workflow/engine.js';
import { createLocalStorage } from '../src/files/storage.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { createUsualPeople } from './support/people.js';
import { insertTestRequest } from './support/requests.js';
import { get, post, setRequestSettings, uploadPdf } from './support/resultsInvoices.js';

// Invoices (add invoice action, invoice page): adding, paying (with and without a payee
// record, concurrently, in parts), the remittance advice mailed with its PDF, discard, access.

let t: TestContext;
let handler: string;
let submitter: string;
let globex: string;
let globexHandler: string;
let n: string;

const TAGS = { invoiceType: 'Records fee' };
const PAYMENT = {
  payeeName: 'Northside Medical Centre',
  method: 'cheque',
  amountExclusiveTax: 10_000,
  tax: 1_000,
  amount: 11_000,
  currency: 'AUD',
};

const invoiceRow = (id: string) =>
  t.db.selectFrom('request_invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function addInvoice(requestNumber = n, body: Record<string, unknown> = {}) {
  const key = await uploadPdf(t, handler, 'invoice.pdf');
  const res = await post(t, handler, `/requests/${requestNumber}/actions/addInvoice`, {
    file: { key },
    tags: TAGS,
    ...body,
  });
  expect(res.statusCode).toBe(200);
  return res.json().invoiceId as string;
}

beforeAll(async () => {
  t = await createTestContext();
  ({ handler, submitter, globex } = await createUsualPeople(t));
  await createUser(t.db, {
    id: 'ghandler',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:handler', scope: '/org/globex/' }],
  });
  globexHandler = await signIn(t.app, 'ghandler');
  n = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'open' });
});
afterAll(() => t.close());

describe('addInvoice', () => {
  it('refuses bad input with field errors and changes nothing', async () => {
    const key = await uploadPdf(t, handler, 'invoice.pdf');
    const url = `/requests/${n}/actions/addInvoice`;
    const noTags = await post(t, handler, url, { file: { key } });
    expect(noTags.json().fields).toEqual({ 'tags.invoiceType': 'Invoice Type is required.' });
    const badSum = await post(t, handler, url, {
      file: { key },
      tags: TAGS,
      amountExclusiveTax: 100,
      tax: 10,
      amount: 100,
      currency: 'XXX',
    });
    expect(badSum.statusCode).toBe(400);
    expect(badSum.json().fields).toMatchObject({
      amount: 'The amount must equal the amount excl. tax plus the tax.',
      currency: 'Choose one of the currencies offered.',
    });
    const fraction = await post(t, handler, url, { file: { key }, tags: TAGS, amount: 1.5, currency: 'AUD' });
    expect(fraction.json().fields.amount).toBe('Enter whole cents.');
    const rows = await t.db
      .selectFrom('request_invoices')
      .selectAll()
      .where('request_number', '=', n)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('adds an invoice with its amounts and notice; others are refused', async () => {
    const id = await addInvoice(n, {
      notice: 'Due in 30 days',
      amountExclusiveTax: 5000,
      tax: 500,
      amount: 5500,
      currency: 'AUD',
    });
    expect(await invoiceRow(id)).toMatchObject({ notice: 'Due in 30 days', amount: '5500', currency: 'AUD' });
    const key = await uploadPdf(t, submitter);
    const body = { file: { key }, tags: TAGS };
    expect((await post(t, submitter, `/requests/${n}/actions/addInvoice`, body)).statusCode).toBe(403);
    expect((await post(t, globex, `/requests/${n}/actions/addInvoice`, body)).statusCode).toBe(403);
    const closed = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'closed' });
    const handlersKey = await uploadPdf(t, handler);
    const res = await post(t, handler, `/requests/${closed}/actions/addInvoice`, {
      file: { key: handlersKey },
      tags: TAGS,
    });
    expect(res.statusCode).toBe(409);
  });
});

describe('invoice page and pay', () => {
  let id: string;
  beforeAll(async () => {
    id = await addInvoice();
  });
  const page = () => `/requests/${n}/invoices/${id}`;
  const action = (name: string) => `${page()}/actions/${name}`;

  it('shows the invoice and its actions to staff; submitters of any organisation get 403', async () => {
    const res = await get(t, handler, `${page()}?action=select-payee`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      $type: 'requestInvoice',
      requestNumber: n,
      actions: ['pay', 'discard'],
      action: 'select-payee',
      canViewPayee: true,
      defaultCurrency: 'AUD',
    });
    expect(res.json().invoice).toMatchObject({
      invoiceId: id,
      tags: TAGS,
      createdByDisplayName: 'User handler',
    });
    // Invoices and payments are staff business: not even the request's own submitter sees them.
    const mine = await get(t, submitter, `${page()}?action=select-payee`);
    expect(mine.statusCode).toBe(403);
    expect(mine.body).not.toContain(id);
    expect((await get(t, globex, page())).statusCode).toBe(403);
    expect((await post(t, globex, action('pay'), PAYMENT)).statusCode).toBe(403);
    expect((await post(t, submitter, action('pay'), PAYMENT)).statusCode).toBe(403);
    expect((await post(t, globex, action('discard'))).statusCode).toBe(403);
  });

  it('refuses a payment that breaks the rules, changing nothing', async () => {
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [
        { ...PAYMENT, amount: 10_999 },
        { amount: 'The amount must equal the amount excl. tax plus the tax.' },
      ],
      [{ ...PAYMENT, method: 'creditCard' }, { nameOnCard: 'Name on card is required.' }],
      [{ ...PAYMENT, method: 'bankTransfer' }, { bankAccount: 'Bank account is required.' }],
      [{ ...PAYMENT, currency: 'ZZZ' }, { currency: 'Choose one of the currencies offered.' }],
      [{ ...PAYMENT, payeeName: '  ' }, { payeeName: 'Payee name is required.' }],
      [{ ...PAYMENT, method: 'bitcoin' }, { method: 'Choose a payment method.' }],
      [{ ...PAYMENT, payeeEmail: 'not-an-email' }, { payeeEmail: 'Enter a valid email address.' }],
      [{ ...PAYMENT, payeeId: '999999' }, { payeeId: 'The payee does not exist or is disabled.' }],
    ];
    for (const [body, fields] of cases) {
      const res = await post(t, handler, action('pay'), body);
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toMatchObject(fields);
    }
    const { tax: _tax, ...noTax } = PAYMENT;
    const missing = await post(t, handler, action('pay'), noTax);
    expect(missing.json().fields.tax).toBe('Tax is required.');
    expect((await invoiceRow(id)).paid_at).toBeNull();
  });

  it('pays through a payee record: the payee’s details win; a second payment is 409', async () => {
    const payee = await t.db
      .insertInto('payees')
      .values({
        name: 'Radiology Partners',
        reference_number: 'RP-77',
        email: 'accounts@radiology.example',
        bank_account: '062-000 1234 5678',
        currency: 'AUD',
        disabled: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const search = await get(t, handler, '/payees/search?name=radiology');
    expect(search.statusCode).toBe(200);
    expect(search.json().hits[0]).toMatchObject({ id: payee.id, item: { name: 'Radiology Partners' } });
    expect((await get(t, submitter, '/payees/search?name=radiology')).statusCode).toBe(403);

    const res = await post(t, handler, action('pay'), {
      ...PAYMENT,
      payeeId: payee.id,
      payeeName: 'Typed over',
      method: 'bankTransfer',
      bankAccount: 'ignored',
      invoiceReferenceNumber: 'INV-1001',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().invoice.payments).toHaveLength(1);
    expect(res.json().invoice.payments[0]).toMatchObject({
      payeeId: payee.id,
      payeeName: 'Radiology Partners',
      payeeReferenceNumber: 'RP-77',
      payeeEmail: 'accounts@radiology.example',
      bankAccount: '062-000 1234 5678',
      amount: 11_000,
      invoiceReferenceNumber: 'INV-1001',
    });
    // Received without an amount, the invoice keeps none: the payment is its own record, and with
    // nothing billed to hold it against, it settles the invoice.
    expect(res.json().invoice).toMatchObject({
      amount: null,
      tax: null,
      paid: 11_000,
      balance: null,
      paidByDisplayName: 'User handler',
    });
    expect(res.json().actions).toEqual(['sendRemittanceAdvice', 'discard']);
    const again = await post(t, handler, action('pay'), PAYMENT);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('The invoice is already paid.');
  });

  it('mails the remittance advice with its PDF and the configured logo', async () => {
    const bad = await post(t, handler, action('sendRemittanceAdvice'), { email: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.email).toBe('Enter a valid email address.');
    const empty = await post(t, handler, action('sendRemittanceAdvice'), {});
    expect(empty.json().fields.email).toBe('Email is required.');

    const res = await post(t, handler, action('sendRemittanceAdvice'), {
      email: 'accounts@radiology.example',
    });
    expect(res.statusCode).toBe(200);
    const advice = res.json().invoice.remittanceAdvice;
    expect(advice.name).toBe(`Remittance advice ${n}.pdf`);
    const mail = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to', '=', 'accounts@radiology.example')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe(`Remittance advice: request ${n}`);
    expect(mail.text).toContain('We have paid AUD 110.00 for your invoice INV-1001');
    expect(mail.attachments).toEqual([
      { fileKey: advice.key, name: advice.name, contentType: 'application/pdf' },
    ]);
    const pdf = await get(t, handler, `/files/${advice.key}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await get(t, globex, `/files/${advice.key}`)).statusCode).toBe(403);
  });

  it('discards once, and a discarded invoice cannot be paid', async () => {
    const other = await addInvoice();
    const url = `/requests/${n}/invoices/${other}/actions`;
    expect((await post(t, handler, `${url}/discard`)).statusCode).toBe(200);
    expect((await post(t, handler, `${url}/discard`)).statusCode).toBe(409);
    expect((await post(t, handler, `${url}/pay`, PAYMENT)).statusCode).toBe(409);
    expect((await post(t, handler, `${url}/sendRemittanceAdvice`, { email: 'a@b.example' })).statusCode).toBe(
      409,
    );
  });
});

describe('concurrent payments', () => {
  it('records exactly one payment when two people pay at once', async () => {
    const id = await addInvoice();
    const url = `/requests/${n}/invoices/${id}/actions/pay`;
    const answers = await Promise.all([
      post(t, handler, url, { ...PAYMENT, payeeName: 'First' }),
      post(t, handler, url, { ...PAYMENT, payeeName: 'Second' }),
      post(t, handler, url, { ...PAYMENT, payeeName: 'Third' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    const winner = answers.find((a) => a.statusCode === 200)?.json().invoice.payments[0].payeeName;
    const payments = await t.db
      .selectFrom('invoice_payments')
      .selectAll()
      .where('invoice_id', '=', id)
      .execute();
    expect(payments.map((p) => p.payee_name)).toEqual([winner]);
    const events = await t.db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', 'request.invoicePaid')
      .where('aggregate_id', '=', n)
      .execute();
    expect(events.filter((e) => (e.payload as { invoiceId: string }).invoiceId === id)).toHaveLength(1);
    // The request's history says how the payer signed in (issue 35).
    const history = (await get(t, handler, `/requests/${n}`)).json().history as {
      type: string;
      authenticatedBy?: string;
    }[];
    expect(history.find((h) => h.type === 'request.invoicePaid')?.authenticatedBy).toBe('password');
  });
});

describe('remittance logo', () => {
  it('draws the logo of the request settings into the PDF', async () => {
    const PNG = Buffer.from(
      '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
      'hex',
    );
    const logoKey = 'logoKey000000000000001';
    await createLocalStorage(t.config.files.dir).write(logoKey, Readable.from(PNG));
    await setRequestSettings(t, '/org/logo/', { remittanceAdviceLogo: { key: logoKey, name: 'logo.png' } });
    const r = await insertTestRequest(t.db, { scope: '/org/logo/', status: 'open' });
    const id = await addInvoice(r);
    const base = `/requests/${r}/invoices/${id}/actions`;
    expect((await post(t, handler, `${base}/pay`, PAYMENT)).statusCode).toBe(200);
    const res = await post(t, handler, `${base}/sendRemittanceAdvice`, { email: 'logo@payee.example' });
    const pdf = await get(t, handler, `/files/${res.json().invoice.remittanceAdvice.key}`);
    expect(pdf.rawPayload.toString('latin1')).toContain('/Subtype /Image');
  });
});

describe('part payments (issue 23: a payment never rewrites the invoice it pays)', () => {
  // AUD 1,234.50 + 123.45 = 1,357.95, as billed.
  const BILLED = { amountExclusiveTax: 123_450, tax: 12_345, amount: 135_795, currency: 'AUD' };
  let engine: WorkflowEngine;

  beforeAll(() => {
    engine = new WorkflowEngine(t.db, { log: { warn: () => undefined }, config: t.config });
  });
  afterAll(() => engine.stop());

  const pay = (id: string, excl: number, tax: number, extra: Record<string, unknown> = {}) =>
    post(t, handler, `/requests/${n}/invoices/${id}/actions/pay`, {
      ...PAYMENT,
      amountExclusiveTax: excl,
      tax,
      amount: excl + tax,
      ...extra,
    });
  const view = async (id: string) => (await get(t, handler, `/requests/${n}/invoices/${id}`)).json();
  const payTask = async (id: string) => {
    await engine.drain();
    return t.db
      .selectFrom('tasks')
      .select(['completed_at'])
      .where('workflow_key', '=', `payInvoice:invoice:${id}`)
      .executeTakeFirstOrThrow();
  };
  const paymentsOf = (id: string) =>
    t.db.selectFrom('invoice_payments').selectAll().where('invoice_id', '=', id).execute();
  const billedRow = { amount: '135795', amount_exclusive_tax: '123450', tax: '12345', currency: 'AUD' };

  it('keeps the billed amounts through a part and a full payment; the task closes when the balance is 0', async () => {
    const id = await addInvoice(n, BILLED);
    expect((await payTask(id)).completed_at).toBeNull();

    // A cheque of 1,000.00 + 100.00: a part payment.
    const part = await pay(id, 100_000, 10_000);
    expect(part.statusCode).toBe(200);
    expect(part.json().invoice).toMatchObject({ ...BILLED, paid: 110_000, balance: 25_795 });
    expect(part.json().invoice.paidAt).toBeUndefined();
    expect(part.json().invoice.payments).toMatchObject([{ amount: 110_000, amountExclusiveTax: 100_000 }]);
    expect(part.json().actions).toEqual(['pay', 'sendRemittanceAdvice', 'discard']);
    expect(await invoiceRow(id)).toMatchObject({ ...billedRow, paid_at: null });
    expect((await payTask(id)).completed_at).toBeNull();

    // The rest settles it: Paid, the task completed, still as billed.
    const rest = await pay(id, 23_450, 2_345);
    expect(rest.statusCode).toBe(200);
    expect(rest.json().invoice).toMatchObject({ ...BILLED, paid: 135_795, balance: 0 });
    expect(rest.json().invoice.paidAt).toEqual(expect.any(String));
    expect(rest.json().invoice.payments.map((p: { amount: number }) => p.amount)).toEqual([110_000, 25_795]);
    expect(rest.json().actions).toEqual(['sendRemittanceAdvice', 'discard']);
    expect(await invoiceRow(id)).toMatchObject(billedRow);
    expect((await payTask(id)).completed_at).not.toBeNull();
    expect((await view(id)).invoice).toMatchObject({ ...BILLED, paid: 135_795, balance: 0 });
    // The request page's invoices part shows the same.
    const page = (await get(t, handler, `/requests/${n}`)).json();
    const listed = page.invoices.find((i: { invoiceId: string }) => i.invoiceId === id);
    expect(listed).toMatchObject({ ...BILLED, paid: 135_795, balance: 0 });
    expect(listed.payments).toHaveLength(2);
    expect((await pay(id, 100, 0)).statusCode).toBe(409);
  });

  it('pays in full at once, leaving the invoice as billed', async () => {
    const id = await addInvoice(n, BILLED);
    expect((await payTask(id)).completed_at).toBeNull();
    const res = await pay(id, 123_450, 12_345);
    expect(res.statusCode).toBe(200);
    expect(res.json().invoice).toMatchObject({ ...BILLED, paid: 135_795, balance: 0 });
    expect(await invoiceRow(id)).toMatchObject({ ...billedRow, paid_at: expect.any(Date) });
    expect((await payTask(id)).completed_at).not.toBeNull();
  });

  it('refuses zero, negative, over-balance payments on the amount and other-currency ones on the currency, changing nothing', async () => {
    // AUD 60.00 + 6.00 = 66.00, of which 22.00 is paid.
    const id = await addInvoice(n, { amountExclusiveTax: 6_000, tax: 600, amount: 6_600, currency: 'AUD' });
    expect((await payTask(id)).completed_at).toBeNull();
    const cases: [number, number, Record<string, unknown>, string, string?][] = [
      [0, 0, {}, 'The amount must be more than zero.'],
      [-1_000, 0, {}, 'The amount must be more than zero.'],
      [6_001, 600, {}, 'The amount cannot exceed the balance of AUD 66.00.'],
      [6_000, 600, { currency: 'USD' }, "Pay in the invoice's currency, AUD.", 'currency'],
    ];
    const refused = async (stage: string) => {
      for (const [excl, tax, extra, message, field = 'amount'] of cases) {
        const res = await pay(id, excl, tax, extra);
        expect(res.statusCode, `${stage} ${excl}+${tax}`).toBe(400);
        expect(res.json().fields[field], `${stage} ${excl}+${tax}`).toBe(message);
        if (field === 'currency') expect(res.json().fields.amount).toBeUndefined();
      }
    };
    await refused('unpaid');
    expect(await paymentsOf(id)).toEqual([]);
    expect(await invoiceRow(id)).toMatchObject({ amount: '6600', currency: 'AUD', paid_at: null });

    expect((await pay(id, 2_000, 200)).statusCode).toBe(200);
    cases[2] = [4_001, 400, {}, 'The amount cannot exceed the balance of AUD 44.00.'];
    await refused('part paid');
    expect((await paymentsOf(id)).map((p) => Number(p.amount))).toEqual([2_200]);
    expect((await view(id)).invoice).toMatchObject({ amount: 6_600, paid: 2_200, balance: 4_400 });
    expect((await payTask(id)).completed_at).toBeNull();
  });

  it('refuses another organisation’s users, changing nothing', async () => {
    const id = await addInvoice(n, BILLED);
    expect((await pay(id, 100_000, 10_000)).statusCode).toBe(200);
    const body = { ...PAYMENT, amountExclusiveTax: 100, tax: 0, amount: 100 };
    for (const cookie of [globex, globexHandler, submitter]) {
      const res = await post(t, cookie, `/requests/${n}/invoices/${id}/actions/pay`, body);
      expect(res.statusCode).toBe(403);
      expect((await get(t, cookie, `/requests/${n}/invoices/${id}`)).statusCode).toBe(403);
    }
    expect((await paymentsOf(id)).map((p) => Number(p.amount))).toEqual([110_000]);
  });

  it('sends the remittance advice of one payment with that payment’s amounts', async () => {
    const id = await addInvoice(n, BILLED);
    expect((await pay(id, 100_000, 10_000, { invoiceReferenceNumber: 'INV-P1' })).statusCode).toBe(200);
    expect((await pay(id, 23_450, 2_345, { invoiceReferenceNumber: 'INV-P1' })).statusCode).toBe(200);
    const [first] = (await view(id)).invoice.payments;
    const url = `/requests/${n}/invoices/${id}/actions/sendRemittanceAdvice`;
    const res = await post(t, handler, url, { email: 'part@payee.example', paymentId: first.paymentId });
    expect(res.statusCode).toBe(200);
    const mail = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to', '=', 'part@payee.example')
      .executeTakeFirstOrThrow();
    expect(mail.text).toContain('We have paid AUD 1,100.00 for your invoice INV-P1');
    expect(res.json().invoice.payments[0].remittanceAdvice.key).toBe(
      (mail.attachments as { fileKey: string }[])[0]?.fileKey,
    );
    expect(res.json().invoice.payments[1].remittanceAdvice).toBeUndefined();
    const bad = await post(t, handler, url, { email: 'part@payee.example', paymentId: crypto.randomUUID() });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.paymentId).toBe('The invoice has no such payment.');
  });
});
