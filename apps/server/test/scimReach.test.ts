import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn, type TestContext, XHR } from './helpers.js';
import { ERROR, GROUP, PATCH, type ScimHarness, startScim, userBody } from './support/scim.js';

// Issue 32 item 2: a SCIM client reaches no further than the user screens let an administrator of
// its configuration's scope. The client here is saved, and its token taken, by an administrator of
// /org/acme/; "dual" is a user of /org/acme/ who also holds a role at /org/globex/, whom the user
// screens refuse to that administrator. To the client it does not exist. And the configuration
// entries such an administrator saves grant no role and set no scope outside its scopes.

let h: ScimHarness;
let t: TestContext;
let acmeAdmin: string;
let token: string;
const scim = (method: string, url: string, payload?: unknown) => h.scim(method, url, payload, token);
const q = (filter: string) => `filter=${encodeURIComponent(filter)}`;

const saveEntry = (
  id: string,
  type: string,
  data: unknown,
  configurationId = 'orgAcme',
  cookie = acmeAdmin,
) =>
  h.post(
    `/admin/configuration/edit/${configurationId}/${id}`,
    { name: `Entry ${id}`, order: 0, isDefault: false, isDisabled: false, type, data, version: null },
    cookie,
  );

async function userRow(id: string) {
  return t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

beforeAll(async () => {
  h = await startScim();
  ({ t } = h);
  await createUser(t.db, {
    id: 'acmeadmin',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:admin', scope: '/org/acme/' }],
  });
  acmeAdmin = await signIn(t.app, 'acmeadmin');
  const saved = await saveEntry('azure', 'scimClientEntry', {
    subjectAttribute: 'externalId',
    groupRoles: [{ group: 'Staff', role: 'c:roles:handler', scopePath: '/org/acme/' }],
  });
  expect(saved.statusCode, saved.body).toBe(200);
  token = await h.newToken('orgAcme', 'azure', acmeAdmin);
  await createUser(t.db, {
    id: 'dual',
    scope: '/org/acme/',
    roles: [
      { role: 'c:roles:handler', scope: '/org/acme/' },
      { role: 'c:roles:submitter', scope: '/org/globex/' },
    ],
  });
  await createUser(t.db, {
    id: 'acmeplain',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:handler', scope: '/org/acme/' }],
  });
});
afterAll(() => h.t.close());

describe('a SCIM client of an administrator of /org/acme/', () => {
  it('does not reach a user the user screens refuse to that administrator', async () => {
    const screen = await t.app.inject({
      url: '/admin/users/edit/dual',
      headers: { ...XHR, cookie: acmeAdmin },
    });
    expect(screen.json()).toMatchObject({ canEdit: false });
    const before = await userRow('dual');
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', userBody('dual', { emails: [{ value: 'taken.over@evil.example', primary: true }] })],
      [
        'PATCH',
        {
          schemas: [PATCH],
          Operations: [{ op: 'replace', path: 'emails', value: [{ value: 'taken.over@evil.example' }] }],
        },
      ],
      ['PATCH', { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] }],
      ['DELETE', undefined],
    ] as const) {
      const res = await scim(method, '/Users/dual', body);
      expect(res.statusCode, `${method} ${res.body}`).toBe(404);
      expect(res.json().schemas).toEqual([ERROR]);
    }
    const after = await userRow('dual');
    expect(after).toMatchObject({
      email: before.email,
      disabled: false,
      scim_deleted_at: null,
      version: before.version,
    });
  });

  it('leaves that user out of lists, filters and totals', async () => {
    const all = (await scim('GET', '/Users?count=500')).json();
    const ids = all.Resources.map((u: { id: string }) => u.id);
    expect(ids).toContain('acmeplain');
    expect(ids).not.toContain('dual');
    expect(all.totalResults).toBe(ids.length);
    for (const filter of [
      'userName eq "dual"',
      'emails.value eq "dual@test.example"',
      'userName eq "dual" or userName eq "acmeplain"',
    ]) {
      const found = (await scim('GET', `/Users?${q(filter)}`)).json();
      expect(
        found.Resources.map((u: { id: string }) => u.id),
        filter,
      ).not.toContain('dual');
    }
    expect((await scim('GET', `/Users?${q('userName eq "dual"')}`)).json().totalResults).toBe(0);
    expect((await scim('GET', `/Users?${q('userName eq "acmeplain"')}`)).json().totalResults).toBe(1);
  });

  it('cannot put that user in a group, nor shows it as a member of one', async () => {
    const refused = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Staff',
      members: [{ value: 'dual' }],
    });
    expect(refused.statusCode).toBe(400);
    expect(await h.rolesOf('dual')).toEqual(['c:roles:handler@/org/acme/', 'c:roles:submitter@/org/globex/']);
    // A member that gains a role elsewhere later drops out of the client's view of the group, and the
    // client's next membership change leaves it alone.
    await createUser(t.db, { id: 'later.dual', scope: '/org/acme/' });
    const group = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Staff',
      members: [{ value: 'later.dual' }, { value: 'acmeplain' }],
    });
    expect(group.statusCode, group.body).toBe(201);
    expect(await h.rolesOf('later.dual')).toEqual(['c:roles:handler@/org/acme/']);
    await t.db
      .insertInto('user_roles')
      .values({
        user_id: 'later.dual',
        role: 'c:roles:submitter',
        scope: '/org/globex/',
        external_reference: null,
      })
      .execute();
    const shown = (await scim('GET', `/Groups/${group.json().id}`)).json();
    expect(shown.members.map((m: { value: string }) => m.value)).toEqual(['acmeplain']);
    const put = await scim('PUT', `/Groups/${group.json().id}`, {
      schemas: [GROUP],
      displayName: 'Staff',
      members: [],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await h.rolesOf('later.dual')).toEqual([
      'c:roles:handler@/org/acme/',
      'c:roles:submitter@/org/globex/',
    ]);
    expect(await h.rolesOf('acmeplain')).toEqual(['c:roles:handler@/org/acme/']);
  });

  it('does not bring back a deleted user that now holds a role elsewhere: uniqueness, naming nobody', async () => {
    const made = await scim('POST', '/Users', userBody('leaver'));
    expect(made.statusCode, made.body).toBe(201);
    expect((await scim('DELETE', '/Users/leaver')).statusCode).toBe(204);
    await t.db
      .insertInto('user_roles')
      .values({
        user_id: 'leaver',
        role: 'c:roles:submitter',
        scope: '/org/globex/',
        external_reference: null,
      })
      .execute();
    const again = await scim('POST', '/Users', userBody('leaver'));
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json().scimType).toBe('uniqueness');
    expect(await userRow('leaver')).toMatchObject({ disabled: true });
    expect((await userRow('leaver')).scim_deleted_at).not.toBeNull();
    // Nor any other user it does not reach: a create colliding with one is told so, naming nobody.
    for (const body of [
      userBody('dual'),
      userBody('someone.new', { emails: [{ value: 'DUAL@test.example', primary: true }] }),
    ]) {
      const res = await scim('POST', '/Users', body);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ schemas: [ERROR], status: '409', scimType: 'uniqueness' });
      // The answer echoes what the client sent, never the holder's name, address or scopes.
      expect(res.json().detail).not.toMatch(/User dual|dual@test\.example|\/org\/globex\//);
    }
    expect(await userRow('dual')).toMatchObject({ email: 'dual@test.example', scim_user_name: null });
  });
});

describe('configuration entries saved by an administrator of /org/acme/', () => {
  it('refuse SCIM group roles outside its scopes, on the field', async () => {
    const res = await saveEntry('reach', 'scimClientEntry', {
      subjectAttribute: 'externalId',
      groupRoles: [
        { group: 'Staff', role: 'c:roles:handler', scopePath: '/org/acme/dept/sales/' },
        { group: 'Everyone', role: 'c:roles:admin', scopePath: '/' },
        { group: 'Globex', role: 'c:roles:handler', scopePath: '/org/globex/' },
      ],
    });
    expect(res.statusCode, res.body).toBe(400);
    const fields = res.json().fields;
    expect(Object.keys(fields).sort()).toEqual([
      'data.groupRoles.1.scopePath',
      'data.groupRoles.2.scopePath',
    ]);
    expect(fields['data.groupRoles.1.scopePath']).toMatch(/outside your scopes/);
    const stored = await t.db
      .selectFrom('configuration_entries')
      .select('id')
      .where('id', '=', 'reach')
      .execute();
    expect(stored).toEqual([]);
    // An administrator of / may still save them (a mapping outside the client's scope grants nothing).
    const byRoot = await saveEntry(
      'rootReach',
      'scimClientEntry',
      { groupRoles: [{ group: 'Globex', role: 'c:roles:handler', scopePath: '/org/globex/' }] },
      'orgAcme',
      h.root,
    );
    expect(byRoot.statusCode, byRoot.body).toBe(200);
  });

  it("refuse another organisation's scope settings, on the field", async () => {
    const res = await saveEntry('scopeGlobexFromAcme', 'scopeEntry', {
      scopePath: '/org/globex/',
      usages: ['createUser'],
      passwordPolicy: {
        minLength: 1,
        minUpperCase: 0,
        minLowerCase: 0,
        minDigits: 0,
        minSymbolOrPunctation: 0,
      },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(['data.scopePath']);
    expect(res.json().fields['data.scopePath']).toMatch(/outside your scopes/);
    const own = await saveEntry('scopeAcmeTeam', 'scopeEntry', { scopePath: '/org/acme/dept/sales/' });
    expect(own.statusCode, own.body).toBe(200);
  });
});
