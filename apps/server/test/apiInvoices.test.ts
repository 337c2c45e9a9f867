import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { addApiKey, apiToken, bearer, type TestApiKey } from './support/apiKeys.js';
import { insertTestRequest } from './support/requests.js';
import { get, PDF, post } from './support/resultsInvoices.js';

// Invoices through the public API (issue 8) reaching every invoice state: an invoice uploaded by
// another system carries the link to its entry there (foreignReference), and the paying system
// confirms the payment ("paid and confirmed", paymentConfirmedAt), which the invoice page shows.

const ACME = '/org/acme/';
let t: TestContext;
let acme: TestApiKey;
let globex: TestApiKey;
let reader: TestApiKey;
let admin: string;
let n: string;

async function call(key: TestApiKey, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: bearer(await apiToken(key)),
    ...(payload === undefined ? {} : { payload }),
  });
}

async function uploadPdf(key: TestApiKey): Promise<string> {
  const res = await call(key, 'POST', '/api/v1/files', {
    name: 'invoice.pdf',
    contentType: 'application/pdf',
    contentLength: PDF.length,
  });
  expect(res.statusCode).toBe(201);
  const target = new URL(res.json().uploadUrl);
  const put = await t.app.inject({
    method: 'PUT',
    url: `${target.pathname}${target.search}`,
    headers: res.json().headers,
    payload: PDF,
  });
  expect(put.statusCode).toBe(200);
  return res.json().key;
}

async function addInvoice(body: Record<string, unknown> = {}) {
  return call(acme, 'POST', `/api/v1/requests/${n}/invoices`, {
    file: { key: await uploadPdf(acme) },
    tags: { invoiceType: 'Records fee' },
    ...body,
  });
}

const confirmation = (id: string) => `/api/v1/requests/${n}/invoices/${id}/payment-confirmation`;

beforeAll(async () => {
  t = await createTestContext();
  acme = await addApiKey(t.db, {
    kid: 'acmeBilling',
    scopePath: ACME,
    apiScopes: ['fileWrite', 'requestInvoiceRead', 'requestInvoiceWrite'],
  });
  reader = await addApiKey(t.db, { kid: 'acmeReader', scopePath: ACME, apiScopes: ['requestInvoiceRead'] });
  globex = await addApiKey(t.db, {
    kid: 'globexBilling',
    scopePath: '/org/globex/',
    apiScopes: ['fileWrite', 'requestInvoiceRead', 'requestInvoiceWrite'],
  });
  await createUser(t.db, { id: 'admin', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  admin = await signIn(t.app, 'admin');
  n = await insertTestRequest(t.db, { scope: ACME, prefix: 'ACM', status: 'open' });
});
afterAll(() => t.close());

describe('an invoice uploaded with a foreign reference', () => {
  it('refuses a link that is not https, with its field, and adds nothing', async () => {
    for (const url of ['http://billing.example/inv/1', 'javascript:alert(1)', 'not a url']) {
      const res = await addInvoice({ foreignReference: { url, label: 'Invoice 1' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual({ 'foreignReference.url': 'Enter a valid https URL.' });
    }
    const malformed = await addInvoice({ foreignReference: { label: 'no url' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields).toHaveProperty('foreignReference.url');
    expect(await t.db.selectFrom('request_invoices').select('id').execute()).toEqual([]);
  });

  it('keeps the link (credentials stripped) and lists it; the invoice page links it', async () => {
    const res = await addInvoice({
      foreignReference: { url: 'https://user:secret@billing.example/invoices/77', label: 'Invoice 77' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().invoiceId;
    const list = await call(acme, 'GET', `/api/v1/requests/${n}/invoices`);
    expect(list.json().invoices).toEqual([
      expect.objectContaining({
        invoiceId: id,
        foreignReference: { url: 'https://billing.example/invoices/77', label: 'Invoice 77' },
      }),
    ]);
    const page = await get(t, admin, `/requests/${n}/invoices/${id}`);
    expect(page.json().invoice.foreignReference).toEqual({
      url: 'https://billing.example/invoices/77',
      label: 'Invoice 77',
    });
    // Without a label the link shows its address.
    const bare = await addInvoice({ foreignReference: { url: 'https://billing.example/invoices/78' } });
    const bareId = bare.json().invoiceId;
    expect(
      (await get(t, admin, `/requests/${n}/invoices/${bareId}`)).json().invoice.foreignReference,
    ).toEqual({
      url: 'https://billing.example/invoices/78',
      label: 'https://billing.example/invoices/78',
    });
  });
});

describe('confirming a payment', () => {
  let id = '';
  beforeAll(async () => {
    id = (await addInvoice()).json().invoiceId;
  });

  it('answers 409 while the invoice is not paid, changing nothing', async () => {
    const res = await call(acme, 'POST', confirmation(id));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The invoice is not paid yet.');
    const row = await t.db
      .selectFrom('request_invoices')
      .select('payment_confirmed_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.payment_confirmed_at).toBeNull();
  });

  it('confirms a paid invoice once: the page shows paid and confirmed, the history tells', async () => {
    const paid = await post(t, admin, `/requests/${n}/invoices/${id}/actions/pay`, {
      payeeName: 'Northside Billing',
      method: 'cheque',
      amountExclusiveTax: 10_000,
      tax: 1_000,
      amount: 11_000,
      currency: 'AUD',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const res = await call(acme, 'POST', confirmation(id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ invoiceId: id, paymentConfirmedAt: expect.any(String) });
    const page = (await get(t, admin, `/requests/${n}/invoices/${id}`)).json();
    expect(page.invoice.paymentConfirmedAt).toBe(res.json().paymentConfirmedAt);
    const again = await call(acme, 'POST', confirmation(id));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('The payment is already confirmed.');
    const history = (await get(t, admin, `/requests/${n}`)).json().history;
    expect(history[0]).toMatchObject({
      type: 'request.invoicePaymentConfirmed',
      actorDisplayName: 'API key Key acmeBilling',
    });
  });

  it('answers 409 for a discarded invoice', async () => {
    const discarded = (await addInvoice()).json().invoiceId;
    expect((await post(t, admin, `/requests/${n}/invoices/${discarded}/actions/discard`)).statusCode).toBe(
      200,
    );
    const res = await call(acme, 'POST', confirmation(discarded));
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The invoice was discarded.');
  });

  it('needs requestInvoiceWrite, and knows only invoices of the key’s scope', async () => {
    const lacking = await call(reader, 'POST', confirmation(id));
    expect(lacking.statusCode).toBe(403);
    expect(lacking.json().message).toBe('This API key lacks the API scope requestInvoiceWrite.');
    expect((await call(globex, 'POST', confirmation(id))).statusCode).toBe(404);
    expect((await call(acme, 'POST', confirmation(randomUUID()))).statusCode).toBe(404);
    expect(
      (await call(acme, 'POST', `/api/v1/requests/${n}/invoices/nope/payment-confirmation`)).statusCode,
    ).toBe(400);
  });

  it('is described in the OpenAPI document with its scope', async () => {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    const op = doc.paths['/api/v1/requests/{requestNumber}/invoices/{invoiceId}/payment-confirmation'].post;
    expect(op.security).toEqual([{ apiKeyJwt: ['requestInvoiceWrite'] }]);
    expect(op.responses).toHaveProperty('409');
    const upload = doc.paths['/api/v1/requests/{requestNumber}/invoices'].post;
    expect(upload.requestBody.content['application/json'].schema.properties).toHaveProperty(
      'foreignReference',
    );
  });
});
