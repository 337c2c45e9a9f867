import { isValidEmail } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, seedScopes } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';

// One email rule (issue 22 item 6): every route that takes an address refuses exactly what the
// browser's forms refuse (packages/core isValidEmail). /reset-password used zod's z.email(), which
// took a 64-character domain label the forms refuse.

const REFUSED = [
  `x@${'a'.repeat(64)}.example`,
  'a@localhost',
  'a@-bad.example',
  'a@double..dot',
  'a b@example.com',
  'no-at.example',
];
const ACCEPTED = [`x@${'a'.repeat(63)}.example`, 'first.last+tag@sub.example.com.au'];

let t: TestContext;
let root: ReturnType<typeof caller>;
let anonymous: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestContext();
  await seedScopes(t.db);
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  root = caller(t.app, await signIn(t.app, 'root'));
  anonymous = caller(t.app);
});
afterAll(() => t.close());

const newUser = (userId: string, email: string) => ({
  userId,
  name: 'Email Rule',
  phone: '02 9876 5432',
  email,
  scope: '/org/acme/',
  password: 'Carl-Pass-2026!',
  roles: ['c:roles:handler@/org/acme/'],
  passwordMustBeChangedAtNextLogin: false,
});

describe('one email rule on every route', () => {
  it('the table is the browser rule', () => {
    for (const email of REFUSED) expect(isValidEmail(email)).toBe(false);
    for (const email of ACCEPTED) expect(isValidEmail(email)).toBe(true);
  });

  it.each(REFUSED)('/reset-password, the user form and the outbox filter refuse %s', async (email) => {
    const reset = await anonymous.post('/reset-password', { email });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().fields).toEqual({ email: 'Enter a valid email address.' });

    const user = await root.post('/admin/users/edit', newUser('emailrule', email));
    expect(user.statusCode).toBe(400);
    expect(user.json().fields.email).toBe('Enter a valid email address.');

    const outbox = await root.get(`/admin/outbox/search?to=${encodeURIComponent(email)}`);
    expect(outbox.statusCode).toBe(400);
    expect(outbox.json().fields).toEqual({ to: 'Enter a valid email address.' });
  });

  it.each(ACCEPTED)('/reset-password, the user form and the outbox filter accept %s', async (email) => {
    expect((await anonymous.post('/reset-password', { email })).statusCode).toBe(200);
    const userId = `ok${ACCEPTED.indexOf(email)}`;
    const user = await root.post('/admin/users/edit', newUser(userId, email));
    expect(user.statusCode).toBe(200);
    expect((await root.get(`/admin/outbox/search?to=${encodeURIComponent(email)}`)).statusCode).toBe(200);
  });

  it('a missing or empty address says the field is required', async () => {
    expect((await anonymous.post('/reset-password', {})).json().fields).toEqual({
      email: 'Email is required.',
    });
    expect((await anonymous.post('/reset-password', { email: '  ' })).json().fields).toEqual({
      email: 'Email is required.',
    });
  });
});
