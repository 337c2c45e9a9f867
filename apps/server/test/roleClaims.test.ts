import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { listMailTo } from '../src/mail/outbox.js';
import { caller, seedScopes, signinForm } from './accountsHelpers.js';
import { createTestContext, createUser, sessionCookieOf, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// An external role a user gives itself is a claim: it grants nothing until an administrator of the
// claimed scope approves it (issue: self-registration read another organisation's requests).

let t: TestContext;
let requestNumber: string;
const ROLE = 'c:roles:external:ADV-1001@/org/acme/';

beforeAll(async () => {
  t = await createTestContext({ selfRegistration: true });
  await seedScopes(t.db);
  await createUser(t.db, {
    id: 'acmeadmin',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:admin', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'globexadmin',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:admin', scope: '/org/globex/' }],
  });
  await createUser(t.db, {
    id: 'gus',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/globex/' }],
  });
  requestNumber = await insertTestRequest(t.db, {
    scope: '/org/acme/',
    prefix: 'ACM',
    externalUserReferences: ['ADV-1001'],
    applicant: { name: 'Private Patient', policyNumber: 'POL-9' },
  });
});
afterAll(() => t.close());

async function registerAndConfirm(userId: string): Promise<string> {
  const password = 'Register-Me-2026!';
  const res = await caller(t.app).post('/account/create', {
    userId,
    name: 'Mallory Outsider',
    phone: '+61 2 9876 5432',
    email: `${userId}@evil.example`,
    password,
    roles: [ROLE],
  });
  expect(res.statusCode).toBe(200);
  const [mail] = await listMailTo(t.db, `${userId}@evil.example`);
  assert(mail);
  const link = new URL(/https?:\/\/\S+\/account\/confirm\?token=\S+/.exec(mail.text)?.[0] as string);
  expect((await caller(t.app).get(link.pathname + link.search)).statusCode).toBe(200);
  const signedIn = await t.app.inject(signinForm(userId, password));
  expect(signedIn.statusCode).toBe(200);
  return sessionCookieOf(signedIn);
}

describe('a self-registered external role', () => {
  let mallory: ReturnType<typeof caller>;

  beforeAll(async () => {
    mallory = caller(t.app, await registerAndConfirm('mallory'));
  });

  it('grants nothing: the request carrying the reference stays unknown', async () => {
    const res = await mallory.get(`/requests/${requestNumber}`);
    expect([403, 404]).toContain(res.statusCode);
    expect(res.body).not.toContain('Private Patient');
    const found = await mallory.get('/requests/search?q=Private');
    expect(found.body).not.toContain('Private Patient');
  });

  it('is shown as pending on the account page, and the account lives in the newcomers scope', async () => {
    const view = (await mallory.get('/account')).json();
    expect(view.pendingRoles).toEqual([ROLE]);
    const user = await t.db
      .selectFrom('users')
      .select('scope')
      .where('id', '=', 'mallory')
      .executeTakeFirst();
    expect(user?.scope).toBe('/registered/');
    const row = await t.db.selectFrom('user_roles').selectAll().where('user_id', '=', 'mallory').execute();
    expect(row).toEqual([]);
  });

  it('is listed for the administrator of the claimed scope, and not for another', async () => {
    const acme = caller(t.app, await signIn(t.app, 'acmeadmin'));
    const waiting = (await acme.get('/admin/users')).json().pendingRoleClaims;
    expect(waiting).toMatchObject([{ userId: 'mallory', role: ROLE }]);
    const globex = caller(t.app, await signIn(t.app, 'globexadmin'));
    expect((await globex.get('/admin/users')).json().pendingRoleClaims).toEqual([]);
    expect((await globex.get('/admin/users/edit/mallory')).statusCode).toBe(404);
    const shown = (await acme.get('/admin/users/edit/mallory')).json();
    expect(shown.pendingRoles).toMatchObject([{ role: ROLE, canDecide: true }]);
  });

  it('is refused to decide by an administrator of another scope, and changes nothing', async () => {
    const [claim] = await t.db
      .selectFrom('role_claims')
      .select('id')
      .where('user_id', '=', 'mallory')
      .execute();
    assert(claim);
    const globex = caller(t.app, await signIn(t.app, 'globexadmin'));
    const res = await globex.post(`/admin/users/edit/mallory/role-claims/${claim.id}/approve`, {});
    expect(res.statusCode).toBe(403);
    expect(
      await t.db.selectFrom('role_claims').select('id').where('user_id', '=', 'mallory').execute(),
    ).toHaveLength(1);
  });

  it('grants access once approved by the administrator of its scope', async () => {
    const [claim] = await t.db
      .selectFrom('role_claims')
      .select('id')
      .where('user_id', '=', 'mallory')
      .execute();
    assert(claim);
    const acme = caller(t.app, await signIn(t.app, 'acmeadmin'));
    const res = await acme.post(`/admin/users/edit/mallory/role-claims/${claim.id}/approve`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().pendingRoles).toEqual([]);
    expect(res.json().user.roles).toEqual([ROLE]);
    const again = caller(t.app, await signIn(t.app, 'mallory', 'Register-Me-2026!'));
    expect((await again.get(`/requests/${requestNumber}`)).statusCode).toBe(200);
    expect((await again.get('/account')).json().pendingRoles).toEqual([]);
    const history = await t.db
      .selectFrom('events')
      .select(['type', 'actor'])
      .where('aggregate_id', '=', 'mallory')
      .where('type', '=', 'roleClaimApproved')
      .execute();
    expect(history).toEqual([{ type: 'roleClaimApproved', actor: 'acmeadmin' }]);
  });

  it('is gone when refused', async () => {
    const eve = caller(t.app, await registerAndConfirm('eve'));
    const [claim] = await t.db.selectFrom('role_claims').select('id').where('user_id', '=', 'eve').execute();
    assert(claim);
    const acme = caller(t.app, await signIn(t.app, 'acmeadmin'));
    const res = await acme.post(`/admin/users/edit/eve/role-claims/${claim.id}/refuse`, {});
    expect(res.statusCode).toBe(200);
    expect((await eve.get('/account')).json().pendingRoles).toEqual([]);
    expect((await eve.get(`/requests/${requestNumber}`)).statusCode).not.toBe(200);
    const twice = await acme.post(`/admin/users/edit/eve/role-claims/${claim.id}/approve`, {});
    expect(twice.statusCode).toBe(404);
  });
});

describe('an existing user adding an external role on its account page', () => {
  it('gets a pending claim, not the role', async () => {
    const gus = caller(t.app, await signIn(t.app, 'gus'));
    const view = (await gus.get('/account')).json();
    const res = await gus.post('/account', {
      ...view.user,
      phone: '+61 2 9000 1111',
      roles: [...view.user.roles, ROLE],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().pendingRoles).toEqual([ROLE]);
    const read = await gus.get(`/requests/${requestNumber}`);
    expect(read.statusCode).not.toBe(200);
    expect(read.body).not.toContain('Private Patient');
    const roles = await t.db.selectFrom('user_roles').select('role').where('user_id', '=', 'gus').execute();
    expect(roles).toEqual([{ role: 'c:roles:submitter' }]);
  });
});

describe('a control character in a claimed external reference (issue 32)', () => {
  it('is refused on the field at registration and on the account page, and nothing is claimed', async () => {
    const crlf = 'c:roles:external:A\r\nB@/org/acme/';
    const res = await caller(t.app).post('/account/create', {
      userId: 'crlf.claimant',
      name: 'Carla Return',
      phone: '+61 2 9876 5432',
      email: 'crlf.claimant@evil.example',
      password: 'Register-Me-2026!',
      roles: [crlf],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().fields).toEqual({ roles: 'Contains characters that are not allowed.' });
    expect(await t.db.selectFrom('users').select('id').where('id', '=', 'crlf.claimant').execute()).toEqual(
      [],
    );

    const gus = caller(t.app, await signIn(t.app, 'gus'));
    const view = (await gus.get('/account')).json();
    for (const role of [crlf, 'c:roles:external:A\tB@/org/acme/', 'c:roles:external:A\nB@/org/acme/']) {
      const refused = await gus.post('/account', { ...view.user, roles: [...view.user.roles, role] });
      expect(refused.statusCode, JSON.stringify(role)).toBe(400);
      expect(refused.json().fields).toEqual({ roles: 'Contains characters that are not allowed.' });
    }
    const claims = await t.db
      .selectFrom('role_claims')
      .select('external_reference')
      .where('external_reference', 'like', 'A%B')
      .execute();
    expect(claims).toEqual([]);
  });
});

describe('a claim with a line break kept from before the rule (issue 32)', () => {
  it('is not approved into a role, and may still be refused', async () => {
    await createUser(t.db, { id: 'kept.claimant', scope: '/registered/' });
    const claim = await t.db
      .insertInto('role_claims')
      .values({
        user_id: 'kept.claimant',
        role: 'c:roles:external',
        scope: '/org/acme/',
        external_reference: 'A\r\nB',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const acme = caller(t.app, await signIn(t.app, 'acmeadmin'));
    const url = `/admin/users/edit/kept.claimant/role-claims/${claim.id}`;
    const approved = await acme.post(`${url}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(400);
    expect(approved.json().fields).toEqual({ roles: 'Contains characters that are not allowed.' });
    expect(
      await t.db.selectFrom('user_roles').select('role').where('user_id', '=', 'kept.claimant').execute(),
    ).toEqual([]);
    expect((await acme.post(`${url}/refuse`, {})).statusCode).toBe(200);
    expect(
      await t.db.selectFrom('role_claims').select('id').where('user_id', '=', 'kept.claimant').execute(),
    ).toEqual([]);
  });
});
