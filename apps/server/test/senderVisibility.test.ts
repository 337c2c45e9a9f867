import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { get, post, setRequestSettings, uploadPdf } from './support/resultsInvoices.js';

// What the sender side sees of a request (issue 5, authorization; DESIGN: results reach the sender
// only after QA). An external user sees only requests carrying its reference; submitters and
// external users see results once quality-assured (or QA skipped) and not discarded, and never
// invoices, payments or their files. Staff see everything.

let t: TestContext;
const USERS = ['handler', 'manager', 'submitter', 'advisor', 'stranger', 'globex'] as const;
type User = (typeof USERS)[number];
const cookie = {} as Record<User, string>; // every user's, from beforeAll
let n: string;
let authority: string;
const results: Record<'qad' | 'awaiting' | 'discarded', { id: string; key: string }> = {} as never;
let invoice: { id: string; key: string; advice: string };

const RESULT_TAGS = { documentType: 'Medical records' };
const PAYMENT = {
  payeeName: 'Billing Bureau Pty Ltd',
  method: 'bankTransfer',
  bankAccount: '062-000 1234 5678',
  amountExclusiveTax: 10_000,
  tax: 1_000,
  amount: 11_000,
  currency: 'AUD',
};

async function addResult(requestNumber: string) {
  const key = await uploadPdf(t, cookie.handler, 'records.pdf');
  const res = await post(t, cookie.handler, `/requests/${requestNumber}/actions/addResult`, {
    file: { key },
    tags: RESULT_TAGS,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().resultId as string, key };
}

const resultAction = (id: string, action: string, body: object = {}) =>
  post(t, cookie.handler, `/requests/${n}/results/${id}/actions/${action}`, body);

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, { id: 'manager', roles: [{ role: 'c:roles:manager', scope: '/org/acme/' }] });
  await createUser(t.db, {
    id: 'submitter',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'advisor',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:external', scope: '/org/acme/', externalReference: 'ADV-1' }],
  });
  await createUser(t.db, {
    id: 'stranger',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:external', scope: '/org/acme/', externalReference: 'ADV-2' }],
  });
  await createUser(t.db, {
    id: 'globex',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/globex/' }],
  });
  for (const id of USERS) cookie[id] = await signIn(t.app, id);

  n = await insertTestRequest(t.db, {
    scope: '/org/acme/',
    prefix: 'ACM',
    status: 'open',
    applicant: { name: 'Vera Visible' },
    externalUserReferences: ['ADV-1'],
  });
  // The applicant's authority: a file of the request that is neither a result nor an invoice.
  authority = await uploadPdf(t, cookie.handler, 'authority.pdf');
  await t.db
    .updateTable('files')
    .set({ owner_type: 'request', owner_id: n })
    .where('key', '=', authority)
    .execute();

  results.qad = await addResult(n);
  expect((await resultAction(results.qad.id, 'qualityAssure', { itemTypes: [] })).statusCode).toBe(200);
  results.awaiting = await addResult(n);
  results.discarded = await addResult(n);
  expect((await resultAction(results.discarded.id, 'qualityAssure', { itemTypes: [] })).statusCode).toBe(200);
  expect((await resultAction(results.discarded.id, 'discard')).statusCode).toBe(200);

  const invoiceKey = await uploadPdf(t, cookie.handler, 'invoice.pdf');
  const added = await post(t, cookie.handler, `/requests/${n}/actions/addInvoice`, {
    file: { key: invoiceKey },
    tags: { invoiceType: 'Records fee' },
  });
  expect(added.statusCode, added.body).toBe(200);
  const invoiceId = added.json().invoiceId as string;
  const page = `/requests/${n}/invoices/${invoiceId}`;
  expect((await post(t, cookie.handler, `${page}/actions/pay`, PAYMENT)).statusCode).toBe(200);
  const sent = await post(t, cookie.handler, `${page}/actions/sendRemittanceAdvice`, {
    email: 'accounts@northside.example',
  });
  expect(sent.statusCode, sent.body).toBe(200);
  invoice = { id: invoiceId, key: invoiceKey, advice: sent.json().invoice.remittanceAdvice.key };
});
afterAll(() => t.close());

describe('an external user', () => {
  it('sees a request carrying its reference, and only the results delivered to the sender', async () => {
    const res = await get(t, cookie.advisor, `/requests/${n}`);
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(view.results.map((r: { resultId: string }) => r.resultId)).toEqual([results.qad.id]);
    expect(view.previews).toMatchObject({ resultsAvailable: 1, resultsAwaitingQa: 0 });
    expect((await get(t, cookie.advisor, `/requests/${n}/results/${results.qad.id}`)).statusCode).toBe(200);
    expect((await get(t, cookie.advisor, `/files/${results.qad.key}`)).statusCode).toBe(200);
    expect((await get(t, cookie.advisor, `/files/${authority}`)).statusCode).toBe(200);
  });

  it('is refused (403) a request without its reference, its files, results and preview', async () => {
    for (const path of [
      `/requests/${n}`,
      `/requests/${n}/preview`,
      `/requests/${n}/history`,
      `/requests/${n}/results/${results.qad.id}`,
      `/files/${authority}`,
      `/files/${results.qad.key}`,
    ]) {
      const res = await get(t, cookie.stranger, path);
      expect(res.statusCode, path).toBe(403);
      expect(res.body).not.toContain('Vera');
    }
  });

  it('finds only requests carrying its reference', async () => {
    const search = (who: User) => get(t, cookie[who], `/requests/search?requestNumber=${n}`);
    expect((await search('advisor')).json()).toMatchObject({ total: 1, hits: [{ id: n }] });
    expect((await search('stranger')).json()).toMatchObject({ total: 0, hits: [] });
    const byName = await get(t, cookie.stranger, '/requests/search?subject=vera');
    expect(byName.json().total).toBe(0);
  });
});

describe('the sender side (submitter and external user)', () => {
  it.each(['submitter', 'advisor'] as const)(
    '%s: no result awaiting QA or discarded, anywhere',
    async (who) => {
      const view = (await get(t, cookie[who], `/requests/${n}`)).json();
      const ids = view.results.map((r: { resultId: string }) => r.resultId);
      expect(ids).toEqual([results.qad.id]);
      for (const hidden of [results.awaiting, results.discarded]) {
        const page = await get(t, cookie[who], `/requests/${n}/results/${hidden.id}`);
        expect(page.statusCode).toBe(403);
        expect(page.body).not.toContain(hidden.key);
        const file = await get(t, cookie[who], `/files/${hidden.key}`);
        expect(file.statusCode).toBe(403);
        expect(file.body).not.toContain('records.pdf');
      }
    },
  );

  it.each(['submitter', 'advisor'] as const)('%s: no invoices, payments or their files', async (who) => {
    const res = await get(t, cookie[who], `/requests/${n}`);
    const view = res.json();
    expect(view.invoices).toEqual([]);
    expect(view.canViewInvoices).toBe(false);
    expect(view.previews).toMatchObject({ invoicesPaid: 0, invoicesWaiting: 0 });
    // Nor the history of them (amounts, payee), nor of results that have not reached the sender.
    const types = view.history.map((h: { type: string }) => h.type);
    expect(types).toContain('request.resultQualityAssured');
    expect(
      types.filter((type: string) => /invoice|remittance|resultAdded|resultDiscarded/.test(type)),
    ).toEqual([]);
    expect(res.body).not.toContain('Billing Bureau');
    expect(res.body).not.toContain('062-000');
    const older = await get(t, cookie[who], `/requests/${n}/history?before=999999999`);
    expect(older.body).not.toContain('invoice');
    expect((await get(t, cookie[who], `/requests/${n}/invoices/${invoice.id}`)).statusCode).toBe(403);
    expect((await get(t, cookie[who], `/files/${invoice.key}`)).statusCode).toBe(403);
    expect((await get(t, cookie[who], `/files/${invoice.advice}`)).statusCode).toBe(403);
  });

  it('sees a result as soon as it is added when quality assurance is skipped', async () => {
    await setRequestSettings(t, '/org/acme/skipqa/', { disableResultQualityAssurance: true });
    const skipped = await insertTestRequest(t.db, { scope: '/org/acme/skipqa/', status: 'open' });
    const result = await addResult(skipped);
    const view = (await get(t, cookie.submitter, `/requests/${skipped}`)).json();
    expect(view.results).toEqual([
      expect.objectContaining({ resultId: result.id, qualityAssuranceSkipped: true }),
    ]);
    expect((await get(t, cookie.submitter, `/files/${result.key}`)).statusCode).toBe(200);
    // Discarded, it is gone again.
    const discard = await post(
      t,
      cookie.handler,
      `/requests/${skipped}/results/${result.id}/actions/discard`,
    );
    expect(discard.statusCode).toBe(200);
    expect((await get(t, cookie.submitter, `/requests/${skipped}`)).json().results).toEqual([]);
    expect((await get(t, cookie.submitter, `/files/${result.key}`)).statusCode).toBe(403);
  });
});

describe('staff', () => {
  it.each(['handler', 'manager'] as const)(
    '%s sees every result, the invoices and their files',
    async (who) => {
      const view = (await get(t, cookie[who], `/requests/${n}`)).json();
      expect(view.results).toHaveLength(3);
      expect(view.previews).toMatchObject({ resultsAvailable: 1, resultsAwaitingQa: 1, invoicesPaid: 1 });
      expect(view.canViewInvoices).toBe(true);
      expect(view.invoices.map((i: { invoiceId: string }) => i.invoiceId)).toEqual([invoice.id]);
      expect(view.history.map((h: { type: string }) => h.type)).toContain('request.invoicePaid');
      for (const key of [results.awaiting.key, results.discarded.key, invoice.key, invoice.advice])
        expect((await get(t, cookie[who], `/files/${key}`)).statusCode).toBe(200);
      expect((await get(t, cookie[who], `/requests/${n}/invoices/${invoice.id}`)).statusCode).toBe(200);
    },
  );

  it('another organisation gets 403 on the request, its results, invoices and files', async () => {
    for (const path of [
      `/requests/${n}`,
      `/requests/${n}/results/${results.qad.id}`,
      `/requests/${n}/invoices/${invoice.id}`,
      `/files/${results.qad.key}`,
      `/files/${authority}`,
    ])
      expect((await get(t, cookie.globex, path)).statusCode, path).toBe(403);
  });
});
