import type { RequestView } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, seedScopes } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// The shared input rules (web address, address, country) as the server stores them, one table per
// form that has the fields, and the refusals that name their field; the same rules run in the
// browser (e2e/inputRules.spec.ts). Also: phone search in national format.

let t: TestContext;
let root: ReturnType<typeof caller>;
let handler: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestContext();
  await seedScopes(t.db);
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  root = caller(t.app, await signIn(t.app, 'root'));
  handler = caller(t.app, await signIn(t.app, 'handler'));
});
afterAll(() => t.close());

const KIND = {
  kind: { id: 'kind', name: 'Kind', values: ['hospital'], isRequired: true, value: 'hospital' },
};
const recipient = (extra: Record<string, unknown>) => ({
  name: 'Rules Hospital',
  phone: '02 9382 1111',
  tags: KIND,
  ...extra,
});

// [field, typed, stored]
const STORED: [string, string, string | null][] = [
  ['webSiteUrl', 'https://user:pw@host.example/x', 'https://host.example/x'],
  ['webSiteUrl', '  https://records.example/a?b=1  ', 'https://records.example/a?b=1'],
  ['streetAddress', ' 8 Macquarie St, \n\n  Sydney, NSW 2000 \n', '8 Macquarie St\nSydney NSW 2000'],
  ['postalAddress', 'PO Box 1,\n ,\nSydney', 'PO Box 1\nSydney'],
  ['postalAddress', ' , \n\n', null],
  ['country', 'Australia', 'AU'],
  ['country', 'new zealand', 'NZ'],
  ['country', 'gb', 'GB'],
  ['country', '', null],
];

// [field, typed, field reported, message]
const REFUSED: [string, unknown, string, string][] = [
  ['country', 'zz', 'country', 'Choose a country from the list.'],
  ['country', 'Atlantis', 'country', 'Choose a country from the list.'],
  ['webSiteUrl', 'not a url', 'webSiteUrl', 'Enter a web address starting with http:// or https://.'],
  [
    'webSiteUrl',
    'ftp://files.example/x',
    'webSiteUrl',
    'Enter a web address starting with http:// or https://.',
  ],
  ['contacts', [{ name: 'Rita', phone: 'abc' }], 'contacts.0.phone', 'Enter a valid phone number.'],
  ['contacts', [{ name: 'Rita', email: 'rita@' }], 'contacts.0.email', 'Enter a valid email address.'],
  ['tags', { kind: { ...KIND.kind, value: '' } }, 'tags.kind', 'Kind is required.'],
];

describe('recipient form', () => {
  it.each(STORED)('stores %s typed as %j as %j', async (field, typed, stored) => {
    const res = await handler.post('/admin/recipients/edit', recipient({ [field]: typed }));
    expect(res.statusCode).toBe(200);
    const id = res.json().recipientId;
    const row = await t.db
      .selectFrom('recipients')
      .select(['web_site_url', 'street_address', 'postal_address', 'country'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const column = {
      webSiteUrl: row.web_site_url,
      streetAddress: row.street_address,
      postalAddress: row.postal_address,
      country: row.country,
    }[field];
    expect(column).toBe(stored);
  });

  it.each(REFUSED)(
    'refuses %s %j on its field and stores nothing',
    async (field, typed, reported, message) => {
      const before = await t.db
        .selectFrom('recipients')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      const res = await handler.post('/admin/recipients/edit', recipient({ [field]: typed }));
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual({ [reported]: message });
      const after = await t.db
        .selectFrom('recipients')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      expect(after?.n).toBe(before?.n);
    },
  );

  it('finds a recipient by its phone typed in national format', async () => {
    await handler.post(
      '/admin/recipients/edit',
      recipient({ name: 'Phone Search Hospital', phone: '+61 2 9382 4444' }),
    );
    for (const phone of ['02 9382 4444', '(02) 9382-4444', '+61 2 9382 4444', '9382 4444']) {
      const found = (await handler.get(`/admin/recipients/search?phone=${encodeURIComponent(phone)}`)).json();
      expect(
        found.hits.map((h: { item: { name: string } }) => h.item.name),
        phone,
      ).toEqual(['Phone Search Hospital']);
    }
  });
});

describe('payee form', () => {
  const payee = (url: string) => ({
    name: 'Rules Payee',
    currency: 'AUD',
    foreignReference: { label: 'Ledger', url },
  });

  it('stores the foreign reference without credentials', async () => {
    const res = await handler.post(
      '/admin/payees/edit',
      payee('https://clerk:secret@ledger.example/payees/9'),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().payee.foreignReference).toEqual({
      label: 'Ledger',
      url: 'https://ledger.example/payees/9',
    });
  });

  it('refuses a foreign reference that is no web address, on its field', async () => {
    const res = await handler.post('/admin/payees/edit', payee('not a url'));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      'foreignReference.url': 'Enter a web address starting with http:// or https://.',
    });
  });
});

describe('user form', () => {
  const user = (userId: string, extra: Record<string, unknown>) => ({
    userId,
    name: 'Rules User',
    phone: '02 9876 5432',
    email: `${userId}@test.example`,
    scope: '/org/acme/',
    roles: [],
    ...extra,
  });

  it('stores the country chosen by name as its code, not cut short, and the address cleaned', async () => {
    const res = await root.post(
      '/admin/users/edit',
      user('rulesuser', { country: 'Australia', address: ' 1 George St, \n\n Sydney, NSW ' }),
    );
    expect(res.statusCode).toBe(200);
    const row = await t.db
      .selectFrom('users')
      .select(['country', 'address'])
      .where('id', '=', 'rulesuser')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ country: 'AU', address: '1 George St\nSydney NSW' });
  });

  it('refuses a country that is none, on its field', async () => {
    const res = await root.post('/admin/users/edit', user('zzuser', { country: 'zz' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ country: 'Choose a country from the list.' });
    expect(
      await t.db.selectFrom('users').select('id').where('id', '=', 'zzuser').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('finds a user by phone in national format', async () => {
    for (const phone of ['02 9876 5432', '(02) 9876 5432', '+61298765432']) {
      const found = (await root.get(`/admin/users/search?phone=${encodeURIComponent(phone)}`)).json();
      expect(
        found.hits.map((h: { id: string }) => h.id),
        phone,
      ).toContain('rulesuser');
    }
  });
});

describe('applicant edit on the request page', () => {
  it('stores the country by its code and the address cleaned; refuses "zz" on its field', async () => {
    const n = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      applicant: { country: 'AU', authority: { key: 'authority-key', name: 'authority.pdf' } },
    });
    const view = (await handler.get(`/requests/${n}`)).json() as RequestView;
    const saved = await handler.post(`/requests/${n}/applicant`, {
      version: view.request.version,
      data: { ...view.request.applicant, country: 'New Zealand', address: '3 Queen St,\n\n Auckland ' },
    });
    expect(saved.statusCode).toBe(200);
    expect((saved.json() as RequestView).request.applicant).toMatchObject({
      country: 'NZ',
      address: '3 Queen St\nAuckland',
    });
    const refused = await handler.post(`/requests/${n}/applicant`, {
      version: (saved.json() as RequestView).request.version,
      data: { ...view.request.applicant, country: 'zz' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ country: 'Choose a country from the list.' });
  });
});
