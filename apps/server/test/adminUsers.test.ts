import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, seedScopes, setIpRanges, signinForm } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';

let t: TestContext;
let root: ReturnType<typeof caller>;
let acmeAdmin: ReturnType<typeof caller>;
let manager: ReturnType<typeof caller>;
let handler: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestContext();
  await seedScopes(t.db);
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, {
    id: 'acmeadmin',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:admin', scope: '/org/acme/' }],
  });
  await createUser(t.db, { id: 'manager', roles: [{ role: 'c:roles:manager', scope: '/' }] });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, {
    id: 'acmeuser',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'globexuser',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/globex/' }],
  });
  root = caller(t.app, await signIn(t.app, 'root'));
  acmeAdmin = caller(t.app, await signIn(t.app, 'acmeadmin'));
  manager = caller(t.app, await signIn(t.app, 'manager'));
  handler = caller(t.app, await signIn(t.app, 'handler'));
});
afterAll(() => t.close());

const newUser = (extra: Record<string, unknown> = {}) => ({
  userId: 'carl',
  name: 'Carl Created',
  phone: '02 9876 5432',
  email: 'carl@test.example',
  scope: '/org/acme/',
  password: 'Carl-Pass-2026!',
  roles: ['c:roles:handler@/org/acme/'],
  passwordMustBeChangedAtNextLogin: false,
  ...extra,
});

describe('refusals', () => {
  it('a user without user:view gets 403 on every user route', async () => {
    for (const url of ['/admin/users', '/admin/users/search', '/admin/users/edit/acmeuser']) {
      expect((await handler.get(url)).statusCode, url).toBe(403);
    }
    expect((await handler.post('/admin/users/edit', newUser())).statusCode).toBe(403);
    expect((await handler.post('/admin/users/edit/acmeuser', newUser())).statusCode).toBe(403);
  });

  it('an admin of /org/acme/ neither sees nor changes a user of /org/globex/', async () => {
    expect((await acmeAdmin.get('/admin/users/edit/globexuser')).statusCode).toBe(404);
    const update = await acmeAdmin.post('/admin/users/edit/globexuser', {
      ...newUser(),
      scope: '/org/globex/',
      version: 1,
    });
    expect(update.statusCode).toBe(404);
    const search = await acmeAdmin.get('/admin/users/search');
    expect(
      search
        .json()
        .hits.map((h: { id: string }) => h.id)
        .sort(),
    ).toEqual(['acmeadmin', 'acmeuser']);
    const create = await acmeAdmin.post('/admin/users/edit', newUser({ scope: '/org/globex/', roles: [] }));
    expect(create.statusCode).toBe(403);
    const grant = await acmeAdmin.post('/admin/users/edit', newUser({ roles: ['c:roles:admin@/'] }));
    expect(grant.statusCode).toBe(403);
    const row = await t.db
      .selectFrom('users')
      .select('name')
      .where('id', '=', 'globexuser')
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('User globexuser');
  });

  it('an admin of /org/acme/ may not take over a user of its scope who holds a role at /', async () => {
    await createUser(t.db, {
      id: 'widehandler',
      scope: '/org/acme/',
      roles: [{ role: 'c:roles:handler', scope: '/' }],
    });
    const view = await acmeAdmin.get('/admin/users/edit/widehandler');
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({ canEdit: false });
    expect(view.json().readOnlyReason).toContain('roles outside your scopes');
    const user = view.json().user;
    for (const change of [
      { password: 'Taken-Over-2026!' },
      { disabled: true },
      { email: 'attacker@evil.example' },
      { roles: [] },
    ]) {
      const res = await acmeAdmin.post('/admin/users/edit/widehandler', {
        ...user,
        phone: '02 9876 5432',
        ...change,
      });
      expect(res.statusCode, JSON.stringify(change)).toBe(403);
    }
    const row = await t.db
      .selectFrom('users')
      .select(['email', 'disabled', 'version'])
      .where('id', '=', 'widehandler')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: 'widehandler@test.example', disabled: false, version: user.version });
    // The root administrator covers every role and may.
    const rootSave = await root.post('/admin/users/edit/widehandler', {
      ...user,
      phone: '02 9876 5432',
      name: 'Wide',
    });
    expect(rootSave.statusCode).toBe(200);
    await t.db.deleteFrom('user_roles').where('user_id', '=', 'widehandler').execute();
    await t.db.deleteFrom('users').where('id', '=', 'widehandler').execute();
  });

  it('ends the sessions of a user whose password an administrator sets, or who is disabled', async () => {
    await createUser(t.db, {
      id: 'signedin',
      scope: '/org/acme/',
      roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
    });
    const account = (cookie: string) => caller(t.app, cookie).get('/account');
    const first = await signIn(t.app, 'signedin');
    let user = (await acmeAdmin.get('/admin/users/edit/signedin')).json().user;
    const reset = await acmeAdmin.post('/admin/users/edit/signedin', {
      ...user,
      phone: '02 9876 5432',
      password: 'Reset-By-Admin-2026!',
    });
    expect(reset.statusCode).toBe(200);
    expect((await account(first)).statusCode).toBe(401);

    const second = await signIn(t.app, 'signedin', 'Reset-By-Admin-2026!');
    user = reset.json().user;
    const disabled = await acmeAdmin.post('/admin/users/edit/signedin', { ...user, disabled: true });
    expect(disabled.statusCode).toBe(200);
    const enabled = await acmeAdmin.post('/admin/users/edit/signedin', {
      ...disabled.json().user,
      disabled: false,
    });
    expect(enabled.statusCode).toBe(200);
    // Enabled again, the old session stays ended.
    expect((await account(second)).statusCode).toBe(401);
    await t.db.deleteFrom('user_roles').where('user_id', '=', 'signedin').execute();
    await t.db.deleteFrom('users').where('id', '=', 'signedin').execute();
  });

  it('a manager (user:view only) reads users but may not change them', async () => {
    const view = await manager.get('/admin/users/edit/acmeuser');
    expect(view.statusCode).toBe(200);
    expect(view.json().canEdit).toBe(false);
    expect((await manager.get('/admin/users')).json().canCreateNew).toBe(false);
    const save = await manager.post('/admin/users/edit/acmeuser', { ...view.json().user, name: 'Changed' });
    expect(save.statusCode).toBe(403);
  });
});

describe('create and edit', () => {
  it('offers scopes with createUser and roles at scopes with assignUserRole', async () => {
    const view = (await acmeAdmin.get('/admin/users/edit?action=addRole')).json();
    expect(view).toMatchObject({ $type: 'adminUser', title: 'New User', canEdit: true, action: 'addRole' });
    expect(view.scopes.map((s: { scopePath: string }) => s.scopePath)).toEqual(['/org/acme/']);
    expect(view.roleScopes).toEqual([
      { scopePath: '/org/acme/', roles: expect.arrayContaining(['c:roles:external']) },
    ]);
  });

  it('creates a user with a role; the user signs in with that role', async () => {
    const res = await acmeAdmin.post('/admin/users/edit', newUser());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ userId: 'carl', title: 'User: carl' });
    expect(res.json().user).toMatchObject({ phone: '+61298765432', roles: ['c:roles:handler@/org/acme/'] });
    expect(res.json().history[0]).toMatchObject({ type: 'userCreated', actor: 'acmeadmin' });
    const signin = await t.app.inject(signinForm('carl', 'Carl-Pass-2026!'));
    expect(signin.statusCode).toBe(200);
    expect(signin.json().user.permissions).toContain('recipient:edit');
  });

  it('answers 400 with field errors and 409 on a duplicate id or email', async () => {
    const bad = await root.post(
      '/admin/users/edit',
      newUser({ userId: 'X', scope: '', email: 'x', phone: '' }),
    );
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['email', 'phone', 'scope', 'userId']);
    const dup = await root.post('/admin/users/edit', newUser({ email: 'CARL@test.example' }));
    expect(dup.statusCode).toBe(409);
    expect(Object.keys(dup.json().fields).sort()).toEqual(['email', 'userId']);
    const external = await root.post(
      '/admin/users/edit',
      newUser({ userId: 'ext', email: 'ext@x.example', roles: ['c:roles:external@/org/acme/'] }),
    );
    expect(external.statusCode).toBe(400);
    const notOffered = await root.post(
      '/admin/users/edit',
      newUser({ userId: 'ext', email: 'ext@x.example', roles: ['c:roles:handler@/org/other/'] }),
    );
    expect(notOffered.statusCode).toBe(400);
  });

  it('updates, records what changed, and refuses a stale version', async () => {
    const view = (await root.get('/admin/users/edit/carl')).json();
    const saved = await root.post('/admin/users/edit/carl', {
      ...view.user,
      name: 'Carl Renamed',
      disabled: true,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().history[0]).toMatchObject({
      type: 'userUpdated',
      actor: 'root',
      changes: { name: { from: 'Carl Created', to: 'Carl Renamed' }, disabled: { from: false, to: true } },
    });
    const stale = await root.post('/admin/users/edit/carl', { ...view.user, name: 'Lost' });
    expect(stale.statusCode).toBe(409);
    expect((await t.app.inject(signinForm('carl', 'Carl-Pass-2026!'))).statusCode).toBe(401); // disabled
  });

  it('shows a temporary lockout and clears it', async () => {
    await t.db
      .updateTable('users')
      .set({ locked_until: new Date(Date.now() + 60_000), phone: '+61290000009' })
      .where('id', '=', 'acmeuser')
      .execute();
    const view = (await root.get('/admin/users/edit/acmeuser')).json();
    expect(view.user.isTemporaryLockedOut).toBe(true);
    const saved = await root.post('/admin/users/edit/acmeuser', {
      ...view.user,
      isTemporaryLockedOut: false,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().user.isTemporaryLockedOut).toBeUndefined();
  });

  it('Clear Lockout acts at once: the user signs in, the form keeps its version, others are refused', async () => {
    await t.db
      .updateTable('users')
      .set({ locked_until: new Date(Date.now() + 60_000), failed_signins: 5 })
      .where('id', '=', 'acmeuser')
      .execute();
    expect((await t.app.inject(signinForm('acmeuser', 'Correct-Horse-9'))).json().code).toBe('locked');
    const before = (await root.get('/admin/users/edit/acmeuser')).json();
    expect(before.user.isTemporaryLockedOut).toBe(true);
    // A handler, or an administrator of another scope, may not.
    expect((await handler.post('/admin/users/edit/acmeuser/clear-lockout', {})).statusCode).toBe(403);
    expect((await acmeAdmin.post('/admin/users/edit/globexuser/clear-lockout', {})).statusCode).toBe(404);

    const cleared = await acmeAdmin.post('/admin/users/edit/acmeuser/clear-lockout', {});
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ cleared: true });
    const after = (await root.get('/admin/users/edit/acmeuser')).json();
    expect(after.user.isTemporaryLockedOut).toBeUndefined();
    expect(after.user.version).toBe(before.user.version);
    expect(after.history[0]).toMatchObject({ type: 'userUpdated' });
    expect((await t.app.inject(signinForm('acmeuser', 'Correct-Horse-9'))).statusCode).toBe(200);
    // Nothing to clear: answered, not recorded again.
    expect((await acmeAdmin.post('/admin/users/edit/acmeuser/clear-lockout', {})).json()).toEqual({
      cleared: false,
    });
    expect((await acmeAdmin.post('/admin/users/edit/nobody/clear-lockout', {})).statusCode).toBe(404);
  });

  it('checks and enforces the IP range of the scope at sign-in', async () => {
    await setIpRanges(t.db, 'scopeAcme', [
      { id: 'office', isDefault: true, cidrs: ['10.0.0.0/8'] },
      { id: 'local', isDefault: false, cidrs: ['127.0.0.1', '::1'] },
    ]);
    let view = (await root.get('/admin/users/edit/acmeuser')).json();
    expect(
      view.scopes.find((s: { scopePath: string }) => s.scopePath === '/org/acme/').ipRanges,
    ).toHaveLength(2);
    const bad = await root.post('/admin/users/edit/acmeuser', { ...view.user, ipRange: 'nowhere' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('ipRange');
    await root.post('/admin/users/edit/acmeuser', { ...view.user, ipRange: 'office' });
    const refused = await t.app.inject(signinForm('acmeuser', 'Correct-Horse-9'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ipRange');
    view = (await root.get('/admin/users/edit/acmeuser')).json();
    await root.post('/admin/users/edit/acmeuser', { ...view.user, ipRange: 'local' });
    expect((await t.app.inject(signinForm('acmeuser', 'Correct-Horse-9'))).statusCode).toBe(200);
  });

  it('starts a new user in the preselected scope with its default IP range', async () => {
    await setIpRanges(t.db, 'scopeAcme', [
      { id: 'local', isDefault: false, cidrs: ['127.0.0.1', '::1'] },
      { id: 'office', isDefault: true, cidrs: ['10.0.0.0/8'] },
    ]);
    const view = (await acmeAdmin.get('/admin/users/edit')).json();
    expect(view.user.scope).toBe('/org/acme/');
    expect(view.user.ipRange).toBe('office');
  });

  it('keeps externalUserId read-only', async () => {
    await t.db.updateTable('users').set({ external_user_id: 'ext-1' }).where('id', '=', 'acmeuser').execute();
    const view = (await root.get('/admin/users/edit/acmeuser')).json();
    await root.post('/admin/users/edit/acmeuser', { ...view.user, externalUserId: 'changed' });
    const row = await t.db
      .selectFrom('users')
      .select('external_user_id')
      .where('id', '=', 'acmeuser')
      .executeTakeFirstOrThrow();
    expect(row.external_user_id).toBe('ext-1');
  });
});

describe('search', () => {
  it('searches by every field and pages', async () => {
    const all = (await root.get('/admin/users/search?pageSize=2')).json();
    expect(all.total).toBe(7);
    expect(all.hits).toHaveLength(2);
    expect(all.paging).toEqual({ offset: 0, size: 2 });
    const page2 = (await root.get('/admin/users/search?pageSize=2&pageOffset=6')).json();
    expect(page2.hits).toHaveLength(1);
    expect((await root.get('/admin/users/search?name=renamed')).json().hits[0].id).toBe('carl');
    expect((await root.get('/admin/users/search?phone=98765432')).json().hits[0].id).toBe('carl');
    expect((await root.get('/admin/users/search?email=GLOBEX')).json().total).toBe(1);
    expect((await root.get('/admin/users/search?scope=/org/acme/')).json().total).toBe(3);
    expect((await root.get('/admin/users/search?name=%25')).json().total).toBe(0);
    expect((await root.get('/admin/users/search?pageSize=1000')).statusCode).toBe(400);
  });

  it('finds users by an external reference', async () => {
    await t.db
      .insertInto('user_roles')
      .values({
        user_id: 'globexuser',
        role: 'c:roles:external',
        scope: '/org/globex/',
        external_reference: 'ADV-9',
      })
      .execute();
    const res = (await root.get('/admin/users/search?externalUserReference=adv-9')).json();
    expect(res.hits.map((h: { id: string }) => h.id)).toEqual(['globexuser']);
  });
});
