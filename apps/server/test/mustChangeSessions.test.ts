import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, seedScopes } from './accountsHelpers.js';
import { createTestContext, createUser, PASSWORD, signIn, type TestContext } from './helpers.js';

// Issue 33 item 20: "Must change password at next sign-in" applies to the sessions the user already
// has: they are sent to the change-password page, not only new sign-ins.

let t: TestContext;
let root: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestContext();
  await seedScopes(t.db);
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, {
    id: 'dora',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  root = caller(t.app, await signIn(t.app, 'root'));
});
afterAll(() => t.close());

async function flag(value: boolean) {
  const user = (await root.get('/admin/users/edit/dora')).json().user;
  const saved = await root.post('/admin/users/edit/dora', {
    ...user,
    phone: '02 9876 5432',
    passwordMustBeChangedAtNextLogin: value,
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

describe('must change password, for open sessions', () => {
  it('sends an open session to the change-password page once the flag is set', async () => {
    const cookie = await signIn(t.app, 'dora');
    const dora = caller(t.app, cookie);
    expect((await dora.get('/account')).statusCode).toBe(200);
    await flag(true);
    // The client's own request: 401 saying why, and where the change is made.
    const json = await dora.get('/account');
    expect(json.statusCode).toBe(401);
    expect(json.json().code).toBe('passwordMustChange');
    expect(json.headers.location).toBe('/account/change-password?username=dora&return-url=%2Faccount');
    // A browser opening a page is sent there.
    const page = await t.app.inject({ method: 'GET', url: '/account', headers: { cookie } });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/account/change-password?username=dora&return-url=%2Faccount');
    // The change itself works and signs the user in again.
    const changed = await t.app.inject({
      method: 'POST',
      url: '/account/change-password',
      headers: { 'x-requested-with': 'XMLHttpRequest', cookie },
      payload: { username: 'dora', password: PASSWORD, newPassword: 'Dora-New-Pass-2026!' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const fresh = await signIn(t.app, 'dora', 'Dora-New-Pass-2026!');
    expect((await caller(t.app, fresh).get('/account')).statusCode).toBe(200);
  });
});
