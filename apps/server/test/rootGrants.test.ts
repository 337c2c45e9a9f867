import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, seedScopes } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';

// Issue 33 item 19: the root scope is where a second root administrator and an all-organisation
// handler are granted, and a root administrator chooses which scope owns a new payee.

let t: TestContext;
let root: ReturnType<typeof caller>;
let acmeAdmin: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestContext();
  await seedScopes(t.db);
  await createUser(t.db, {
    id: 'root',
    roles: [
      { role: 'c:roles:admin', scope: '/' },
      { role: 'c:roles:handler', scope: '/' },
    ],
  });
  await createUser(t.db, {
    id: 'acmeadmin',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:admin', scope: '/org/acme/' }],
  });
  root = caller(t.app, await signIn(t.app, 'root'));
  acmeAdmin = caller(t.app, await signIn(t.app, 'acmeadmin'));
});
afterAll(() => t.close());

const newUser = (userId: string, roles: string[]) => ({
  userId,
  name: `User ${userId}`,
  phone: '02 9876 5432',
  email: `${userId}@test.example`,
  scope: '/org/dossier/',
  password: 'Root-Pass-2026!',
  roles,
  passwordMustBeChangedAtNextLogin: false,
});

describe('grants at the root scope', () => {
  it('offers every role at / to a root administrator, not to an organisation administrator', async () => {
    const view = (await root.get('/admin/users/edit')).json();
    expect(view.roleScopes.map((s: { scopePath: string }) => s.scopePath)).toContain('/');
    const acme = (await acmeAdmin.get('/admin/users/edit')).json();
    expect(acme.roleScopes.map((s: { scopePath: string }) => s.scopePath)).not.toContain('/');
  });

  it('grants a second root administrator and an all-organisation handler', async () => {
    const admin = await root.post('/admin/users/edit', newUser('root2', ['c:roles:admin@/']));
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json().user.roles).toEqual(['c:roles:admin@/']);
    const handler = await root.post('/admin/users/edit', newUser('allhandler', ['c:roles:handler@/']));
    expect(handler.statusCode, handler.body).toBe(200);
    expect(handler.json().user.roles).toEqual(['c:roles:handler@/']);
  });
});

describe('the owning scope of a payee', () => {
  const payee = (extra: Record<string, unknown> = {}) => ({
    name: 'Acme Clinic Accounts',
    currency: 'AUD',
    ...extra,
  });

  it('offers a root administrator the scopes a payee may belong to', async () => {
    const view = (await root.get('/admin/payees/edit')).json();
    expect(view.scope).toBe('/');
    expect(view.scopes.map((s: { scopePath: string }) => s.scopePath)).toEqual(
      expect.arrayContaining(['/', '/org/acme/', '/org/globex/']),
    );
  });

  it('stores the chosen owning scope', async () => {
    const created = await root.post('/admin/payees/edit', payee({ scope: '/org/acme/' }));
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().scope).toBe('/org/acme/');
    const again = (await root.get(`/admin/payees/edit/${created.json().payeeId}`)).json();
    expect(again.scope).toBe('/org/acme/');
  });

  it('refuses a scope the editor may not own entries at, at the field', async () => {
    const created = await acmeAdmin.post('/admin/payees/edit', payee({ scope: '/org/globex/' }));
    expect([400, 403]).toContain(created.statusCode);
  });
});

describe('organisations by name (issue 33 item 12)', () => {
  it('names the scopes of roles on the user page and on registration', async () => {
    const view = (await root.get('/admin/users/edit/acmeadmin')).json();
    expect(view.scopeNames).toMatchObject({ '/org/acme/': 'Acme Insurance', '/org/globex/': 'Globex Legal' });
    const account = (await acmeAdmin.get('/account')).json();
    expect(account.scopeNames).toMatchObject({ '/org/acme/': 'Acme Insurance' });
  });
});
