import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';

// Recipients and payees belong to the scope they were created in: editors of another organisation
// may view and use them but not change them, so one organisation cannot redirect another's
// payments or letters. A payee's bank account or email change is announced to the root admins.

let t: TestContext;
let root: ReturnType<typeof caller>;
let acme: ReturnType<typeof caller>;
let globex: ReturnType<typeof caller>;
let sharedPayee: string;
let sharedRecipient: string;

const payee = (extra: Record<string, unknown> = {}) => ({
  name: 'Auckland Records Ltd',
  email: 'accounts@auckland.example',
  bankAccount: '01-0001-0000001-00',
  currency: 'NZD',
  ...extra,
});
const recipient = (extra: Record<string, unknown> = {}) => ({
  name: 'Northside Clinic',
  phone: '02 9000 0000',
  email: 'records@northside.example',
  country: 'AU',
  tags: { kind: { id: 'kind', name: 'Kind', values: ['doctor'], isRequired: true, value: 'doctor' } },
  contacts: [],
  ...extra,
});

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, { id: 'root2', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, {
    id: 'acmeadmin',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:admin', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'globexhandler',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:handler', scope: '/org/globex/' }],
  });
  root = caller(t.app, await signIn(t.app, 'root'));
  acme = caller(t.app, await signIn(t.app, 'acmeadmin'));
  globex = caller(t.app, await signIn(t.app, 'globexhandler'));
  sharedPayee = (await root.post('/admin/payees/edit', payee())).json().payeeId;
  sharedRecipient = (await root.post('/admin/recipients/edit', recipient())).json().recipientId;
});
afterAll(() => t.close());

describe('payees', () => {
  it("refuses an organisation's administrator a shared payee's bank account, with the reason", async () => {
    const view = (await acme.get(`/admin/payees/edit/${sharedPayee}`)).json();
    expect(view).toMatchObject({ scope: '/', canEdit: false });
    expect(view.readOnlyReason).toBe('This payee belongs to /: only its editors there may change it.');
    const res = await acme.post(`/admin/payees/edit/${sharedPayee}`, {
      ...view.payee,
      bankAccount: '99-9999',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(view.readOnlyReason);
    const after = (await root.get(`/admin/payees/edit/${sharedPayee}`)).json();
    expect(after.payee.bankAccount).toBe('01-0001-0000001-00');
    expect(after.payee.version).toBe(view.payee.version);
  });

  it('lets an organisation own its payees, which another organisation may not change', async () => {
    const created = await acme.post('/admin/payees/edit', payee({ name: 'Acme Local Records' }));
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ scope: '/org/acme/', canEdit: true });
    const id = created.json().payeeId;
    const own = await acme.post(`/admin/payees/edit/${id}`, {
      ...created.json().payee,
      referenceNumber: 'AL-1',
    });
    expect(own.statusCode).toBe(200);
    const other = await globex.post(`/admin/payees/edit/${id}`, {
      ...own.json().payee,
      bankAccount: '66-6666',
    });
    expect(other.statusCode).toBe(403);
    expect((await globex.get(`/admin/payees/edit/${id}`)).json().canEdit).toBe(false);
  });

  it('records a bank account change with before and after and tells every other root administrator', async () => {
    const view = (await root.get(`/admin/payees/edit/${sharedPayee}`)).json();
    const res = await root.post(`/admin/payees/edit/${sharedPayee}`, {
      ...view.payee,
      bankAccount: '02-0002-0000002-00',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().history[0]).toMatchObject({
      type: 'payeeUpdated',
      changes: { bankAccount: { from: '01-0001-0000001-00', to: '02-0002-0000002-00' } },
    });
    const notified = await t.db
      .selectFrom('notifications')
      .select(['user_id', 'type', 'text', 'target'])
      .where('type', '=', 'payeeChanged')
      .execute();
    // Whoever pays the payee next is shown that its payment details changed.
    const found = (await root.get('/payees/search?name=auckland')).json();
    expect(found.hits[0].item.paymentDetailsChangedAt).toEqual(expect.any(String));
    const untouched = (await root.get('/payees/search?name=acme%20local')).json();
    expect(untouched.hits[0].item.paymentDetailsChangedAt).toBeUndefined();
    expect(notified).toEqual([
      {
        user_id: 'root2',
        type: 'payeeChanged',
        text: 'User root changed the bank account of the payee Auckland Records Ltd.',
        target: `/admin/payees/edit/${sharedPayee}`,
      },
    ]);
  });
});

describe('recipients', () => {
  it("refuses another organisation's editor, and lets the owner change its own", async () => {
    const view = (await globex.get(`/admin/recipients/edit/${sharedRecipient}`)).json();
    expect(view).toMatchObject({ scope: '/', canEdit: false });
    const res = await globex.post(`/admin/recipients/edit/${sharedRecipient}`, {
      ...view.recipient,
      email: 'attacker@evil.example',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This recipient belongs to /: only its editors there may change it.');
    const created = await globex.post('/admin/recipients/edit', recipient({ name: 'Globex Clinic' }));
    expect(created.json()).toMatchObject({ scope: '/org/globex/', canEdit: true });
    const mine = await globex.post(`/admin/recipients/edit/${created.json().recipientId}`, {
      ...created.json().recipient,
      notes: 'Ours.',
    });
    expect(mine.statusCode).toBe(200);
    const acmeTry = await acme.post(`/admin/recipients/edit/${created.json().recipientId}`, {
      ...mine.json().recipient,
      notes: 'Hijacked.',
    });
    expect(acmeTry.statusCode).toBe(403);
  });
});
