import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { hashPassword } from '../src/features/auth/passwords.js';
import { createTestContext, createUser, PASSWORD, signIn, type TestContext, XHR } from './helpers.js';

// SCIM provisioning (issue 17) driven the way an identity provider drives it: a client entry saved
// in the configuration editor, its token made there, then /scim/v2 calls with that token.

let t: TestContext;
let root: string;
let acmeToken: string;
let globexToken: string;

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

const post = (url: string, payload: unknown, cookie = root) =>
  t.app.inject({ method: 'POST', url, headers: { ...XHR, cookie }, payload: payload as object });

async function saveClient(configurationId: string, id: string, data: unknown) {
  const res = await post(`/admin/configuration/edit/${configurationId}/${id}`, {
    name: `SCIM ${id}`,
    order: 0,
    isDefault: false,
    isDisabled: false,
    type: 'scimClientEntry',
    data,
    version: null,
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function newToken(configurationId: string, id: string, cookie = root) {
  const res = await post(`/admin/configuration/edit/${configurationId}/${id}/scim-token`, undefined, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token as string;
}

function scim(method: string, url: string, payload?: unknown, token = acmeToken) {
  return t.app.inject({
    method: method as 'GET',
    url: `/scim/v2${url}`,
    headers: {
      authorization: `Bearer ${token}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/scim+json' }),
    },
    ...(payload === undefined
      ? {}
      : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });
}

const userBody = (userName: string, more: Record<string, unknown> = {}) => ({
  schemas: [USER],
  userName,
  externalId: `ext-${userName}`,
  name: { givenName: 'Pat', familyName: userName },
  emails: [{ value: `${userName.split('@')[0]}@acme.example`, type: 'work', primary: true }],
  active: true,
  ...more,
});

const rolesOf = async (userId: string) =>
  (await t.db.selectFrom('user_roles').select(['role', 'scope']).where('user_id', '=', userId).execute())
    .map((r) => `${r.role}@${r.scope}`)
    .sort();

beforeAll(async () => {
  t = await createTestContext();
  await seedConfiguration(t.db, { demo: true });
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  root = await signIn(t.app, 'root');
  await saveClient('orgAcme', 'entra', {
    subjectAttribute: 'externalId',
    groupRoles: [
      { group: 'Handlers', role: 'c:roles:handler', scopePath: '/org/acme/' },
      // Outside the client's scope: grants nothing.
      { group: 'Handlers', role: 'c:roles:admin', scopePath: '/' },
    ],
  });
  await saveClient('orgGlobex', 'okta', { subjectAttribute: 'userName', groupRoles: [] });
  acmeToken = await newToken('orgAcme', 'entra');
  globexToken = await newToken('orgGlobex', 'okta');
});
afterAll(() => t.close());

describe('the SCIM token in the configuration', () => {
  it('is shown once, kept only as a hash, and replaced by a new one', async () => {
    await saveClient('orgAcme', 'spare', {});
    const url = '/admin/configuration/edit/orgAcme/spare/scim-token';
    const before = await t.app.inject({ url, headers: { ...XHR, cookie: root } });
    expect(before.json()).toMatchObject({ token: null, hint: null });
    const first = await newToken('orgAcme', 'spare');
    expect(first).toMatch(/^dscim_[A-Za-z0-9_-]{43}$/);
    const status = await t.app.inject({ url, headers: { ...XHR, cookie: root } });
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
    const none = await t.app.inject({ url: '/scim/v2/Users', headers: { cookie: root } });
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
  });
});

async function saveClientMapping() {
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
      groupRoles: [
        { group: 'Handlers', role: 'c:roles:handler', scopePath: '/org/acme/' },
        { group: 'handlers two', role: 'c:roles:handler', scopePath: '/org/acme/' },
        { group: 'Handlers Two', role: 'c:roles:manager', scopePath: '/org/acme/' },
      ],
    },
    version: entry.version,
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('filters and paging', () => {
  beforeAll(async () => {
    for (const n of [1, 2, 3, 4, 5])
      expect((await scim('POST', '/Users', userBody(`page${n}`))).statusCode).toBe(201);
  });
  const list = async (query: string, token = acmeToken) => {
    const res = await scim('GET', `/Users?${query}`, undefined, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const q = (filter: string) => `filter=${encodeURIComponent(filter)}`;

  it('finds users by userName, externalId and e-mail, alone or with and', async () => {
    expect((await list(q('userName eq "PAGE2"'))).Resources.map((u: { id: string }) => u.id)).toEqual([
      'page2',
    ]);
    expect((await list(q('externalId eq "ext-page3"'))).Resources[0].id).toBe('page3');
    expect((await list(q('emails.value eq "page4@acme.example"'))).Resources[0].id).toBe('page4');
    expect((await list(q('emails[value eq "page4@acme.example"]'))).totalResults).toBe(1);
    expect((await list(q('userName eq "page1" and externalId eq "ext-page1"'))).totalResults).toBe(1);
    expect((await list(q('userName eq "page1" and externalId eq "ext-page2"'))).totalResults).toBe(0);
    expect((await list(q('userName eq "page1" or userName eq "page2"'))).totalResults).toBe(2);
    expect((await list(q('userName eq "nobody"'))).Resources).toEqual([]);
  });

  it('refuses filters it cannot answer with invalidFilter', async () => {
    for (const filter of [
      'userName co "page"',
      'name.familyName eq "x"',
      'userName eq',
      'userName eq 12',
      '(((',
    ]) {
      const res = await scim('GET', `/Users?${q(filter)}`);
      expect(res.statusCode, filter).toBe(400);
      expect(res.json()).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidFilter' });
    }
  });

  it('pages with startIndex and count', async () => {
    const all = await list('count=500');
    const page = await list('startIndex=2&count=2');
    expect(page).toMatchObject({ totalResults: all.totalResults, startIndex: 2, itemsPerPage: 2 });
    expect(page.Resources.map((u: { id: string }) => u.id)).toEqual(
      all.Resources.slice(1, 3).map((u: { id: string }) => u.id),
    );
    expect(await list('count=0')).toMatchObject({
      totalResults: all.totalResults,
      itemsPerPage: 0,
      Resources: [],
    });
    expect((await list(`startIndex=${all.totalResults + 5}`)).Resources).toEqual([]);
    for (const bad of ['startIndex=0', 'count=-1', 'count=many']) {
      const res = await scim('GET', `/Users?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().scimType).toBe('invalidValue');
    }
  });
});

describe('scope: a client reaches only users inside its configuration', () => {
  it('answers 404 for a user of another scope and never lists it', async () => {
    await scim('POST', '/Users', userBody('acmeonly'));
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', userBody('acmeonly')],
      ['PATCH', { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] }],
      ['DELETE', undefined],
    ] as const) {
      const res = await scim(method, '/Users/acmeonly', body, globexToken);
      expect(res.statusCode, method).toBe(404);
      expect(res.json().schemas).toEqual([ERROR]);
    }
    const listed = (await scim('GET', '/Users?count=500', undefined, globexToken)).json();
    expect(listed.Resources.map((u: { id: string }) => u.id)).not.toContain('acmeonly');
    const filtered = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "acmeonly"')}`,
      undefined,
      globexToken,
    );
    expect(filtered.json().totalResults).toBe(0);
    const row = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', 'acmeonly')
      .executeTakeFirstOrThrow();
    expect(row.disabled).toBe(false);
    // The globex client creates in its own scope, with the userName as the external id.
    const mine = await scim('POST', '/Users', userBody('glx.user'), globexToken);
    expect(mine.statusCode, mine.body).toBe(201);
    const own = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', 'glx.user')
      .executeTakeFirstOrThrow();
    expect(own).toMatchObject({ scope: '/org/globex/', external_user_id: 'glx.user' });
    // Nor can a group of the globex client take in an acme user.
    const group = await scim(
      'POST',
      '/Groups',
      { schemas: [GROUP], displayName: 'Reach', members: [{ value: 'acmeonly' }] },
      globexToken,
    );
    expect(group.statusCode).toBe(400);
    expect(group.json().scimType).toBe('invalidValue');
  });
});

describe('bad input', () => {
  const count = async () =>
    Number(
      (
        await t.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers SCIM errors with 4xx and changes nothing', async () => {
    const before = await count();
    const cases: [string, string, unknown, number, string | undefined][] = [
      ['POST', '/Users', '{"userName": ', 400, 'invalidSyntax'],
      ['POST', '/Users', { schemas: [USER] }, 400, 'invalidValue'],
      [
        'POST',
        '/Users',
        { schemas: [USER], userName: 'x1', emails: [{ value: 'not-mail' }] },
        400,
        'invalidValue',
      ],
      ['POST', '/Users', { schemas: [USER], userName: 'nomail' }, 400, 'invalidValue'],
      ['POST', '/Users', { schemas: ['urn:other'], userName: 'a@b.example' }, 400, 'invalidValue'],
      ['POST', '/Users', [1, 2], 400, 'invalidValue'],
      ['POST', '/Users', { ...userBody('x2'), active: 'perhaps' }, 400, 'invalidValue'],
      ['POST', '/Users', { ...userBody('x3'), userName: 'y'.repeat(300) }, 400, 'invalidValue'],
      ['POST', '/Users', userBody('page1'), 409, 'uniqueness'],
      ['POST', '/Users', { ...userBody('fresh'), externalId: 'ext-page2' }, 409, 'uniqueness'],
      [
        'POST',
        '/Users',
        { ...userBody('fresh'), emails: [{ value: 'page3@acme.example' }] },
        409,
        'uniqueness',
      ],
      ['PATCH', '/Users/page1', { Operations: [] }, 400, 'invalidSyntax'],
      [
        'PATCH',
        '/Users/page1',
        { schemas: [PATCH], Operations: [{ op: 'jump', path: 'active' }] },
        400,
        undefined,
      ],
      [
        'PATCH',
        '/Users/page1',
        { schemas: [PATCH], Operations: [{ op: 'replace', path: 'userName', value: 'page2' }] },
        409,
        'uniqueness',
      ],
      [
        'PATCH',
        '/Users/page1',
        { schemas: [PATCH], Operations: [{ op: 'replace', path: 'emails', value: 'x' }] },
        400,
        undefined,
      ],
      ['PUT', '/Users/page1', { schemas: [USER] }, 400, 'invalidValue'],
      ['GET', '/Users/no-such-user', undefined, 404, undefined],
      ['GET', '/Groups/not-a-uuid', undefined, 404, undefined],
      [
        'POST',
        '/Groups',
        { schemas: [GROUP], displayName: 'Ghosts', members: [{ value: 'nobody' }] },
        400,
        'invalidValue',
      ],
    ];
    for (const [method, url, body, status, scimType] of cases) {
      const res = await scim(method, url, body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)} → ${res.body}`).toBe(status);
      expect(res.json().schemas).toEqual([ERROR]);
      if (scimType) expect(res.json().scimType, `${method} ${url}`).toBe(scimType);
    }
    expect(await count()).toBe(before);
    const page1 = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', 'page1')
      .executeTakeFirstOrThrow();
    expect(page1).toMatchObject({ scim_user_name: 'page1', disabled: false, email: 'page1@acme.example' });
  });

  it('accepts application/json as well as application/scim+json', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${acmeToken}`, 'content-type': 'application/json' },
      payload: JSON.stringify(userBody('plainjson')),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['content-type']).toContain('application/scim+json');
  });
});
