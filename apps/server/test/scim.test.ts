import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/features/auth/passwords.js';
import { createUser, PASSWORD, signIn, type TestContext, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { ERROR, GROUP, PATCH, type ScimHarness, startScim, USER, userBody } from './support/scim.js';

// SCIM provisioning (issue 17): the client's token in the configuration, authentication and
// discovery, and a user's life from creation to deletion (roles from groups, disabling, linking).
// Filters, paging, scope and bad input are in scimInput.test.ts.

let h: ScimHarness;
let t: TestContext;
const scim = (method: string, url: string, payload?: unknown, token?: string) =>
  h.scim(method, url, payload, token);
const rolesOf = (userId: string) => h.rolesOf(userId);
const post = (url: string, payload: unknown, cookie?: string) => h.post(url, payload, cookie);
const saveClient = (configurationId: string, id: string, data: unknown) =>
  h.saveClient(configurationId, id, data);
const newToken = (configurationId: string, id: string, cookie?: string) =>
  h.newToken(configurationId, id, cookie);

beforeAll(async () => {
  h = await startScim();
  ({ t } = h);
});
afterAll(() => h.t.close());

describe('the SCIM token in the configuration', () => {
  it('is shown once, kept only as a hash, and replaced by a new one', async () => {
    await saveClient('orgAcme', 'spare', {});
    const url = '/admin/configuration/edit/orgAcme/spare/scim-token';
    const before = await t.app.inject({ url, headers: { ...XHR, cookie: h.root } });
    expect(before.json()).toMatchObject({ token: null, hint: null });
    const first = await newToken('orgAcme', 'spare');
    expect(first).toMatch(/^dscim_[A-Za-z0-9_-]{43}$/);
    const status = await t.app.inject({ url, headers: { ...XHR, cookie: h.root } });
    expect(status.json()).toMatchObject({ token: null, hint: first.slice(-4), createdBy: 'root' });
    const stored = await t.db.selectFrom('scim_tokens').selectAll().where('entry_id', '=', 'spare').execute();
    expect(JSON.stringify(stored)).not.toContain(first);
    expect((await scim('GET', '/Users', undefined, first)).statusCode).toBe(200);
    const second = await newToken('orgAcme', 'spare');
    expect((await scim('GET', '/Users', undefined, first)).statusCode).toBe(401);
    expect((await scim('GET', '/Users', undefined, second)).statusCode).toBe(200);
  });

  it('is made only by configuration editors of the scope, for a saved SCIM client', async () => {
    await createUser(t.db, {
      id: 'globexadmin',
      scope: '/org/globex/',
      roles: [{ role: 'c:roles:admin', scope: '/org/globex/' }],
    });
    await createUser(t.db, {
      id: 'acmesubmitter',
      scope: '/org/acme/',
      roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
    });
    const url = '/admin/configuration/edit/orgAcme/entra/scim-token';
    expect((await post(url, undefined, await signIn(t.app, 'globexadmin'))).statusCode).toBe(403);
    expect((await post(url, undefined, await signIn(t.app, 'acmesubmitter'))).statusCode).toBe(403);
    expect(
      (await post('/admin/configuration/edit/orgAcme/requestSettings/scim-token', undefined)).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'POST', url, headers: XHR })).statusCode).toBe(401);
    // The client still works with its token: none of the refusals replaced it.
    expect((await scim('GET', '/Users')).statusCode).toBe(200);
  });

  it('stops working when the client entry is disabled', async () => {
    await saveClient('orgAcme', 'temp', {});
    const token = await newToken('orgAcme', 'temp');
    const entry = await t.db
      .selectFrom('configuration_entries')
      .select('version')
      .where('id', '=', 'temp')
      .executeTakeFirstOrThrow();
    const res = await post('/admin/configuration/edit/orgAcme/temp', {
      name: 'SCIM temp',
      order: 0,
      isDefault: false,
      isDisabled: true,
      data: {},
      version: entry.version,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await scim('GET', '/Users', undefined, token)).statusCode).toBe(401);
  });
});

describe('authentication and discovery', () => {
  it('answers the discovery endpoints to anyone, in SCIM JSON', async () => {
    for (const path of [
      '/ServiceProviderConfig',
      '/ResourceTypes',
      '/Schemas',
      '/ResourceTypes/User',
      `/Schemas/${USER}`,
    ]) {
      const res = await t.app.inject({ url: `/scim/v2${path}` });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type']).toContain('application/scim+json');
    }
    const config = (await t.app.inject({ url: '/scim/v2/ServiceProviderConfig' })).json();
    expect(config.patch.supported).toBe(true);
    expect(config.filter.supported).toBe(true);
    expect((await t.app.inject({ url: '/scim/v2/Schemas/urn:nothing' })).statusCode).toBe(404);
  });

  it('refuses calls without a valid token with a SCIM 401, and never reads a session', async () => {
    const none = await t.app.inject({ url: '/scim/v2/Users', headers: { cookie: h.root } });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ schemas: [ERROR], status: '401' });
    expect(none.headers['www-authenticate']).toContain('Bearer');
    expect((await scim('GET', '/Users', undefined, 'dscim_wrong')).statusCode).toBe(401);
    const unknown = await scim('GET', '/Nothing');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().schemas).toEqual([ERROR]);
  });
});

describe('a user provisioned from creation to deletion', () => {
  it('creates, adds to a group (role appears), disables (sessions end), deletes (kept, disabled)', async () => {
    const created = await scim('POST', '/Users', userBody('Pat.Lee@acme.example'));
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json();
    expect(user).toMatchObject({
      id: 'pat.lee@acme.example',
      userName: 'Pat.Lee@acme.example',
      externalId: 'ext-Pat.Lee@acme.example',
      active: true,
      displayName: 'Pat Pat.Lee@acme.example',
    });
    expect(created.headers.location).toBe(user.meta.location);
    const row = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      scope: '/org/acme/',
      external_user_id: 'ext-Pat.Lee@acme.example',
      external_id_set_by: 'scim:orgAcme/entra',
      disabled: false,
    });
    expect((await scim('GET', `/Users/${user.id}`)).json().userName).toBe('Pat.Lee@acme.example');

    // Group membership grants the mapped role inside the client's scope, and nothing outside it.
    const group = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Handlers', members: [] });
    expect(group.statusCode, group.body).toBe(201);
    const groupId = group.json().id;
    const added = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: user.id }] }],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().members).toEqual([expect.objectContaining({ value: user.id })]);
    expect(await rolesOf(user.id)).toEqual(['c:roles:handler@/org/acme/']);
    expect((await scim('GET', `/Users/${user.id}`)).json().groups).toEqual([
      expect.objectContaining({ value: groupId, display: 'Handlers' }),
    ]);
    // The admin user page tells which role came from which group.
    const page = await t.app.inject({
      url: `/admin/users/edit/${encodeURIComponent(user.id)}`,
      headers: { ...XHR, cookie: h.root },
    });
    expect(page.json()).toMatchObject({
      user: { roles: ['c:roles:handler@/org/acme/'] },
      roleGroups: { 'c:roles:handler@/org/acme/': ['Handlers'] },
    });

    // Signed in (a password set for the test), then disabled the way Entra ID does it.
    await t.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(PASSWORD) })
      .where('id', '=', user.id)
      .execute();
    const cookie = await signIn(t.app, user.id);
    expect((await t.app.inject({ url: '/account', headers: { ...XHR, cookie } })).statusCode).toBe(200);
    const disabled = await scim('PATCH', `/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json().active).toBe(false);
    expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute()).toEqual(
      [],
    );
    expect((await t.app.inject({ url: '/account', headers: { ...XHR, cookie } })).statusCode).toBe(401);
    const again = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: { ...XHR, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ username: user.id, password: PASSWORD }).toString(),
    });
    expect(again.statusCode).not.toBe(200);

    const deleted = await scim('DELETE', `/Users/${user.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await scim('GET', `/Users/${user.id}`)).statusCode).toBe(404);
    const kept = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ disabled: true, external_user_id: null, scim_user_name: null });
    expect(kept.scim_deleted_at).not.toBeNull();
    expect(await rolesOf(user.id)).toEqual([]);
    const events = await t.db
      .selectFrom('events')
      .select(['type', 'actor'])
      .where('aggregate_type', '=', 'user')
      .where('aggregate_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(events.map((e) => e.type)).toEqual([
      'userCreated',
      'userUpdated',
      'scimGroupJoined',
      'userUpdated',
      'userUpdated',
      'scimGroupLeft',
      'userDeprovisioned',
    ]);
    expect(new Set(events.map((e) => e.actor))).toEqual(new Set(['scim:orgAcme/entra']));
    // Provisioned again, the person gets the same account back, enabled, with its history.
    const back = await scim('POST', '/Users', userBody('Pat.Lee@acme.example'));
    expect(back.statusCode, back.body).toBe(201);
    expect(back.json()).toMatchObject({ id: user.id, active: true });
    expect(await rolesOf(user.id)).toEqual([]);
  });

  it('removes only the roles a group granted, never one granted by hand', async () => {
    await createUser(t.db, {
      id: 'handmade',
      scope: '/org/acme/',
      roles: [{ role: 'c:roles:handler', scope: '/org/acme/' }],
    });
    const group = (
      await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Handlers Two', members: [] })
    ).json();
    await saveClientMapping();
    const add = await scim('PATCH', `/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: 'handmade' }] }],
    });
    expect(add.statusCode, add.body).toBe(200);
    expect(await rolesOf('handmade')).toEqual(['c:roles:handler@/org/acme/', 'c:roles:manager@/org/acme/']);
    const remove = await scim('PATCH', `/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: 'members[value eq "handmade"]' }],
    });
    expect(remove.statusCode, remove.body).toBe(200);
    expect(await rolesOf('handmade')).toEqual(['c:roles:handler@/org/acme/']);
  });

  it('takes the open tasks of a member whose group role goes when it leaves the group (issue 32)', async () => {
    await createUser(t.db, { id: 'grouped', scope: '/org/acme/' });
    await saveClientMapping([
      ...MAPPING,
      { group: 'Task Handlers', role: 'c:roles:handler', scopePath: '/org/acme/' },
    ]);
    const group = (
      await scim('POST', '/Groups', {
        schemas: [GROUP],
        displayName: 'Task Handlers',
        members: [{ value: 'grouped' }],
      })
    ).json();
    expect(await rolesOf('grouped')).toEqual(['c:roles:handler@/org/acme/']);
    const n = await insertTestRequest(t.db, { scope: '/org/acme/', prefix: 'SCM', status: 'open' });
    const task = await t.db
      .insertInto('tasks')
      .values({
        type: 'followUp',
        subject: 'Jane Citizen',
        request_number: n,
        scope: '/org/acme/',
        assigned_to: 'grouped',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const left = await scim('PATCH', `/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: 'members[value eq "grouped"]' }],
    });
    expect(left.statusCode, left.body).toBe(200);
    expect(await rolesOf('grouped')).toEqual([]);
    const row = await t.db
      .selectFrom('tasks')
      .select('assigned_to')
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    expect(row.assigned_to).not.toBe('grouped');
    const moved = await t.db
      .selectFrom('events')
      .select('payload')
      .where('aggregate_id', '=', n)
      .where('type', '=', 'request.taskReassigned')
      .execute();
    expect(JSON.stringify(moved)).toContain('the roles of User grouped changed');
  });

  it("gives a group's members a changed mapping's roles when the mapping is saved", async () => {
    await createUser(t.db, { id: 'mapped.later', scope: '/org/acme/' });
    const group = (
      await scim('POST', '/Groups', {
        schemas: [GROUP],
        displayName: 'Mapped Later',
        members: [{ value: 'mapped.later' }],
      })
    ).json();
    expect(group.id).toBeTruthy();
    expect(await rolesOf('mapped.later')).toEqual([]);
    await saveClientMapping([
      ...MAPPING,
      { group: 'Mapped Later', role: 'c:roles:handler', scopePath: '/org/acme/' },
    ]);
    expect(await rolesOf('mapped.later')).toEqual(['c:roles:handler@/org/acme/']);
    await saveClientMapping();
    expect(await rolesOf('mapped.later')).toEqual([]);
  });

  it('links an account made by hand: found by userName, then given its external id', async () => {
    await createUser(t.db, { id: 'jdoe', scope: '/org/acme/' });
    const found = (await scim('GET', '/Users?filter=userName%20eq%20%22JDOE%22')).json();
    expect(found.totalResults).toBe(1);
    const res = await scim('PATCH', '/Users/jdoe', {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'externalId', value: 'okta-00u1' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', 'jdoe').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ external_user_id: 'okta-00u1', external_id_set_by: 'scim:orgAcme/entra' });

    // The admin page shows who linked it, and an administrator unlinks it (in the history).
    const page = await t.app.inject({ url: '/admin/users/edit/jdoe', headers: { ...XHR, cookie: h.root } });
    expect(page.json()).toMatchObject({
      user: { externalUserId: 'okta-00u1' },
      externalUserIdSetBy: 'scim:orgAcme/entra',
    });
    const unlinked = await post('/admin/users/edit/jdoe/unlink-sso', {});
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    expect(unlinked.json()).toMatchObject({ user: { externalUserId: null }, externalUserIdSetBy: null });
    expect(unlinked.json().history[0]).toMatchObject({
      type: 'ssoUnlinked',
      actor: 'root',
      changes: { externalUserId: { from: 'okta-00u1', to: null } },
    });
    expect((await post('/admin/users/edit/jdoe/unlink-sso', {})).statusCode).toBe(409);
    await createUser(t.db, {
      id: 'globexadmin2',
      scope: '/org/globex/',
      roles: [{ role: 'c:roles:admin', scope: '/org/globex/' }],
    });
    const outsider = await post('/admin/users/edit/jdoe/unlink-sso', {}, await signIn(t.app, 'globexadmin2'));
    expect(outsider.statusCode).toBe(404);
  });
});

const MAPPING = [
  { group: 'Handlers', role: 'c:roles:handler', scopePath: '/org/acme/' },
  { group: 'handlers two', role: 'c:roles:handler', scopePath: '/org/acme/' },
  { group: 'Handlers Two', role: 'c:roles:manager', scopePath: '/org/acme/' },
];

async function saveClientMapping(groupRoles: unknown[] = MAPPING) {
  const entry = await t.db
    .selectFrom('configuration_entries')
    .select('version')
    .where('configuration_id', '=', 'orgAcme')
    .where('id', '=', 'entra')
    .executeTakeFirstOrThrow();
  const res = await post('/admin/configuration/edit/orgAcme/entra', {
    name: 'SCIM entra',
    order: 0,
    isDefault: false,
    isDisabled: false,
    data: {
      subjectAttribute: 'externalId',
      groupRoles,
    },
    version: entry.version,
  });
  expect(res.statusCode, res.body).toBe(200);
}
