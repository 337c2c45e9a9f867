import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';

let t: TestContext;
let handler: ReturnType<typeof caller>;
let submitter: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, {
    id: 'submitter',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  handler = caller(t.app, await signIn(t.app, 'handler'));
  submitter = caller(t.app, await signIn(t.app, 'submitter'));
});
afterAll(() => t.close());

const payee = (extra: Record<string, unknown> = {}) => ({
  name: 'Sydney Hospital Accounts',
  referenceNumber: 'SH-001',
  email: 'accounts@sydhosp.example',
  bankAccount: '062-000 12345678',
  currency: 'AUD',
  foreignReference: { label: 'Ledger #17', url: 'https://ledger.example/payees/17' },
  ...extra,
});

describe('payees', () => {
  let id: string;

  it('refuses users without the permission', async () => {
    expect((await submitter.get('/admin/payees')).statusCode).toBe(403);
    expect((await submitter.get('/admin/payees/search')).statusCode).toBe(403);
    expect((await submitter.post('/admin/payees/edit', payee())).statusCode).toBe(403);
  });

  it('offers AUD by default on a new payee', async () => {
    const view = (await handler.get('/admin/payees/edit')).json();
    expect(view).toMatchObject({ $type: 'adminPayee', title: 'New Payee', payee: { currency: 'AUD' } });
    expect(view.currencies.map((c: { code: string }) => c.code)).toContain('NZD');
  });

  it('creates and updates with history; 409 on a stale version', async () => {
    const created = await handler.post('/admin/payees/edit', payee());
    expect(created.statusCode).toBe(200);
    id = created.json().payeeId;
    expect(created.json().payee.foreignReference).toEqual({
      label: 'Ledger #17',
      url: 'https://ledger.example/payees/17',
    });
    const updated = await handler.post(`/admin/payees/edit/${id}`, {
      ...created.json().payee,
      currency: 'NZD',
    });
    expect(updated.json().history[0]).toMatchObject({
      type: 'payeeUpdated',
      changes: { currency: { from: 'AUD', to: 'NZD' } },
      // How the editor signed in (issue 35): a password alone, in these tests.
      authenticatedBy: 'password',
    });
    const stale = await handler.post(`/admin/payees/edit/${id}`, { ...created.json().payee, name: 'Lost' });
    expect(stale.statusCode).toBe(409);
  });

  it('answers 400 per field', async () => {
    const res = await handler.post(
      '/admin/payees/edit',
      payee({ name: ' ', currency: '', foreignReference: { label: 'x', url: 'javascript:alert(1)' } }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      name: 'Name is required.',
      currency: 'Currency is required.',
      'foreignReference.url': expect.stringContaining('https://'),
    });
  });

  it('searches by name, reference number, email and bank account', async () => {
    await handler.post(
      '/admin/payees/edit',
      payee({ name: 'Other Payee', referenceNumber: 'OP-9', email: 'op@x.example', bankAccount: '999' }),
    );
    expect((await handler.get('/admin/payees/search?name=hospital')).json().total).toBe(1);
    expect((await handler.get('/admin/payees/search?referenceNumber=op')).json().hits[0].item.name).toBe(
      'Other Payee',
    );
    expect((await handler.get('/admin/payees/search?email=sydhosp')).json().total).toBe(1);
    expect((await handler.get('/admin/payees/search?bankAccount=062')).json().total).toBe(1);
    expect((await handler.get('/admin/payees/search?pageSize=1')).json()).toMatchObject({
      total: 2,
      paging: { size: 1 },
    });
  });
});
