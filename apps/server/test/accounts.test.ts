import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { listMailTo } from '../src/mail/outbox.js';
import { caller, seedScopes, signinForm } from './accountsHelpers.js';
import { createTestContext, createUser, PASSWORD, signIn, type TestContext } from './helpers.js';

let t: TestContext;
let alice: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestContext({ selfRegistration: true });
  await seedScopes(t.db);
  await createUser(t.db, {
    id: 'alice',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  alice = caller(t.app, await signIn(t.app, 'alice'));
});
afterAll(() => t.close());

const form = (extra: Record<string, unknown> = {}) => ({
  name: 'Alice Example',
  phone: '0412 345 678',
  email: 'alice@test.example',
  roles: ['c:roles:submitter@/org/acme/'],
  ...extra,
});

describe('GET /account', () => {
  it('needs a signed-in user', async () => {
    expect((await caller(t.app).get('/account')).statusCode).toBe(401);
  });

  it('shows the account with its roles and the scopes offered for external roles', async () => {
    const res = await alice.get('/account?action=addRole');
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({
      $type: 'account',
      title: 'Account: alice',
      action: 'addRole',
      canChangePassword: true,
    });
    expect(view.user).toMatchObject({ userId: 'alice', roles: ['c:roles:submitter@/org/acme/'] });
    expect(view.roleScopes).toEqual(['/org/acme/', '/org/globex/']);
    expect(view.passwordPolicy.minLength).toBe(10);
  });
});

describe('POST /account', () => {
  it('saves the form with the phone normalised and records the change', async () => {
    const res = await alice.post('/account', form());
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ name: 'Alice Example', phone: '+61412345678' });
    const events = await t.db.selectFrom('events').selectAll().where('aggregate_id', '=', 'alice').execute();
    expect(events.at(-1)).toMatchObject({ type: 'accountUpdated', actor: 'alice', aggregate_type: 'user' });
    expect(
      (events.at(-1)?.payload as { changes?: Record<string, unknown> } | undefined)?.changes,
    ).toHaveProperty('name');
  });

  it('answers 400 with a message per field', async () => {
    const res = await alice.post(
      '/account',
      form({ name: ' ', phone: '12', email: 'nope', password: 'short' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      name: 'Name is required.',
      phone: expect.stringContaining('valid phone'),
      email: 'Enter a valid email address.',
      password: expect.stringContaining('Password does not meet the minimum requirements.\nLength: 10'),
    });
  });

  it('adds an external role with a reference at an offered scope, and removes it again', async () => {
    const role = 'c:roles:external:ADV%402001@/org/globex/';
    const added = await alice.post('/account', form({ roles: ['c:roles:submitter@/org/acme/', role] }));
    expect(added.statusCode).toBe(200);
    expect(added.json().user.roles).toContain(role);
    const removed = await alice.post('/account', form());
    expect(removed.json().user.roles).toEqual(['c:roles:submitter@/org/acme/']);
  });

  it('refuses any other role, a scope not offered, and removing a non-external role', async () => {
    const admin = await alice.post(
      '/account',
      form({ roles: ['c:roles:submitter@/org/acme/', 'c:roles:admin@/'] }),
    );
    expect(admin.statusCode).toBe(403);
    const notOffered = await alice.post(
      '/account',
      form({ roles: ['c:roles:submitter@/org/acme/', 'c:roles:external:X@/org/dossier/'] }),
    );
    expect(notOffered.statusCode).toBe(400);
    expect((await alice.post('/account', form({ roles: [] }))).statusCode).toBe(403);
    const noReference = await alice.post(
      '/account',
      form({ roles: ['c:roles:submitter@/org/acme/', 'c:roles:external@/org/acme/'] }),
    );
    expect(noReference.statusCode).toBe(400);
    const roles = await t.db.selectFrom('user_roles').select('role').where('user_id', '=', 'alice').execute();
    expect(roles).toEqual([{ role: 'c:roles:submitter' }]);
  });

  it('changes the password only with the current one, and ends the other sessions', async () => {
    const otherDevice = caller(t.app, await signIn(t.app, 'alice'));
    const without = await alice.post('/account', form({ password: 'New-Password-77' }));
    expect(without.statusCode).toBe(400);
    expect(without.json().fields).toEqual({
      currentPassword: 'Enter your current password to change your password or email address.',
    });
    const wrong = await alice.post(
      '/account',
      form({ password: 'New-Password-77', currentPassword: 'guess' }),
    );
    expect(wrong.json().fields).toEqual({ currentPassword: 'The current password is not correct.' });
    expect((await t.app.inject(signinForm('alice', PASSWORD))).statusCode).toBe(200);

    const res = await alice.post(
      '/account',
      form({ password: 'New-Password-77', currentPassword: PASSWORD }),
    );
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject(signinForm('alice', 'New-Password-77'))).statusCode).toBe(200);
    // The session that changed it goes on; every other one has ended.
    expect((await alice.get('/account')).statusCode).toBe(200);
    expect((await otherDevice.get('/account')).statusCode).toBe(401);
  });

  it('limits wrong current passwords', async () => {
    await createUser(t.db, { id: 'guesser', scope: '/org/acme/' });
    const c = caller(t.app, await signIn(t.app, 'guesser'));
    const body = {
      ...form(),
      email: 'guesser@test.example',
      password: 'Another-Pass-88',
      currentPassword: 'x',
    };
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push((await c.post('/account', body)).statusCode);
    expect(answers.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(answers[10]).toBe(429);
  });
});

describe('changing the email address on the account page', () => {
  it('mails a link to the new address and keeps the old one until the link is followed', async () => {
    await createUser(t.db, { id: 'mover', scope: '/org/acme/' });
    const c = caller(t.app, await signIn(t.app, 'mover'));
    const view = (await c.get('/account')).json();
    expect(view.emailConfirmed).toBe(true);
    const bare = await c.post('/account', {
      ...view.user,
      phone: '0412 000 001',
      email: 'mover@new.example',
    });
    expect(bare.json().fields).toHaveProperty('currentPassword');
    // A typo first: the account keeps working with its old address.
    const typo = await c.post('/account', {
      ...view.user,
      phone: '0412 000 001',
      email: 'mover@nwe.example',
      currentPassword: PASSWORD,
    });
    expect(typo.statusCode).toBe(200);
    expect(typo.json()).toMatchObject({ emailConfirmed: true, pendingEmail: 'mover@nwe.example' });
    expect(typo.json().user.email).toBe('mover@test.example');
    expect((await t.app.inject(signinForm('mover', PASSWORD))).statusCode).toBe(200);
    expect((await t.app.inject(signinForm('mover@test.example', PASSWORD))).statusCode).toBe(200);
    const [typoMail] = await listMailTo(t.db, 'mover@nwe.example');
    assert(typoMail);
    const typoToken = /token=([^\s]+)/.exec(typoMail.text)?.[1] as string;

    const res = await c.post('/account', {
      ...typo.json().user,
      email: 'mover@new.example',
      currentPassword: PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().pendingEmail).toBe('mover@new.example');
    // The typo's link no longer confirms anything; the new one does.
    expect((await caller(t.app).get(`/account/confirm?token=${typoToken}`)).json().confirmed).toBe(false);
    const [mail] = await listMailTo(t.db, 'mover@new.example');
    assert(mail);
    const token = /token=([^\s]+)/.exec(mail.text)?.[1] as string;
    expect((await caller(t.app).get(`/account/confirm?token=${token}`)).statusCode).toBe(200);
    const after = (await c.get('/account')).json();
    expect(after.user.email).toBe('mover@new.example');
    expect(after.pendingEmail).toBeNull();
    expect((await t.app.inject(signinForm('mover@new.example', PASSWORD))).statusCode).toBe(200);
  });

  it('mails at most three new addresses an hour from one account', async () => {
    await createUser(t.db, { id: 'spammer', scope: '/org/acme/' });
    const c = caller(t.app, await signIn(t.app, 'spammer'));
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const view = (await c.get('/account')).json();
      const res = await c.post('/account', {
        ...view.user,
        phone: '0412 000 002',
        email: `victim${i}@elsewhere.example`,
        currentPassword: PASSWORD,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(await listMailTo(t.db, 'victim3@elsewhere.example')).toEqual([]);
  });
});

describe('a user with an external id', () => {
  it('has no password fields and may not set a password', async () => {
    await createUser(t.db, { id: 'federated', scope: '/org/acme/' });
    await t.db
      .updateTable('users')
      .set({ external_user_id: 'idp|42', phone: '+61290000042' })
      .where('id', '=', 'federated')
      .execute();
    const c = caller(t.app, await signIn(t.app, 'federated'));
    const view = (await c.get('/account')).json();
    expect(view.canChangePassword).toBe(false);
    expect(view.user.externalUserId).toBe('idp|42');
    const res = await c.post('/account', { ...view.user, password: 'Another-Pass-99!' });
    expect(res.statusCode).toBe(403);
  });
});

describe('self-registration', () => {
  const registration = {
    userId: 'newbie',
    name: 'New Person',
    phone: '+61 2 9876 5432',
    email: 'newbie@test.example',
    password: 'Register-Me-2026!',
    roles: ['c:roles:external:ADV-42@/org/acme/'],
  };

  it('offers the form titled Register New Account', async () => {
    const res = await caller(t.app).get('/account/create');
    expect(res.json()).toMatchObject({ $type: 'accountCreate', title: 'Register New Account' });
  });

  it('registers, mails a confirmation link, and allows sign-in only after confirming', async () => {
    const res = await caller(t.app).post('/account/create', registration);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ $type: 'accountCreated', userId: 'newbie' });
    const refused = await t.app.inject(signinForm('newbie', registration.password));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('unconfirmed');

    const [mail] = await listMailTo(t.db, 'newbie@test.example');
    assert(mail);
    const link = /https?:\/\/[^\s]+\/account\/confirm\?token=[^\s]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    const path = new URL(link as string).pathname + new URL(link as string).search;
    const confirmed = await caller(t.app).get(path);
    expect(confirmed.json()).toMatchObject({ $type: 'accountConfirmed', confirmed: true, userId: 'newbie' });
    // Opened a second time, the link tells the confirmed user so (it confirms nothing new).
    const again = await caller(t.app).get(path);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({
      title: 'Email Address Confirmed',
      confirmed: true,
      alreadyConfirmed: true,
      userId: 'newbie',
    });

    const signedIn = await t.app.inject(signinForm('newbie', registration.password));
    expect(signedIn.statusCode).toBe(200);
    // The external role is a claim until an administrator of /org/acme/ approves it.
    expect(signedIn.json().user.roles).toEqual([]);
  });

  it('answers 409 on a taken user id, and the same as for a new account on a taken address', async () => {
    const takenId = await caller(t.app).post('/account/create', {
      ...registration,
      email: 'fresh@test.example',
    });
    expect(takenId.statusCode).toBe(409);
    expect(takenId.json().fields).toEqual({ userId: 'This user id is already taken.' });

    const fresh = await caller(t.app).post('/account/create', {
      ...registration,
      userId: 'freshling',
      email: 'freshling@test.example',
    });
    const taken = await caller(t.app).post('/account/create', {
      ...registration,
      userId: 'copycat',
      email: 'ALICE@test.example',
    });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(Object.keys(taken.json()).sort()).toEqual(Object.keys(fresh.json()).sort());
    expect(taken.json()).toMatchObject({ $type: 'accountCreated', userId: 'copycat' });
    // No account was made; the address's owner is told what happened.
    expect(await t.db.selectFrom('users').select('id').where('id', '=', 'copycat').execute()).toEqual([]);
    const [told] = await listMailTo(t.db, 'alice@test.example');
    assert(told);
    expect(told.subject).toBe('You already have an account');
    expect(told.text).toContain('alice');
  });

  it('keeps sign-in names unambiguous: no user id equal to another account address, or the reverse', async () => {
    const idLikeEmail = await caller(t.app).post('/account/create', {
      ...registration,
      userId: 'alice@test.example',
      email: 'someone-else@test.example',
    });
    expect(idLikeEmail.statusCode).toBe(409);
    expect(idLikeEmail.json().fields).toEqual({ userId: 'This user id is already taken.' });
    await createUser(t.db, { id: 'sam@acme.example', scope: '/org/acme/' });
    await createUser(t.db, { id: 'tess', scope: '/org/acme/' });
    const sam = caller(t.app, await signIn(t.app, 'tess'));
    const view = (await sam.get('/account')).json();
    const res = await sam.post('/account', {
      ...view.user,
      phone: '0412 000 003',
      email: 'SAM@acme.example',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().fields).toEqual({ email: 'This email address is already used by another account.' });
  });

  it('needs user id and password, and allows only the external role', async () => {
    const res = await caller(t.app).post('/account/create', { ...registration, userId: 'AB', password: '' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual(['password', 'userId']);
    const role = await caller(t.app).post('/account/create', {
      ...registration,
      userId: 'sneaky',
      email: 'sneaky@test.example',
      roles: ['c:roles:admin@/'],
    });
    expect(role.statusCode).toBe(403);
  });

  it('limits registration attempts per address, refused ones too', async () => {
    await t.db
      .insertInto('rate_events')
      .values(Array.from({ length: 10 }, () => ({ bucket: 'register', key: '10.9.9.9' })))
      .execute();
    const res = await t.app.inject({
      method: 'POST',
      url: '/account/create',
      remoteAddress: '10.9.9.9',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      payload: { ...registration, userId: 'flooder', email: 'flooder@test.example' },
    });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('3600');
  });

  it('is not offered when disabled', async () => {
    const other = await createTestContext();
    try {
      expect((await caller(other.app).get('/account/create')).statusCode).toBe(404);
      expect((await caller(other.app).post('/account/create', registration)).statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });
});

describe('a password that must be changed at the next sign-in', () => {
  beforeAll(async () => {
    await createUser(t.db, { id: 'changer', scope: '/org/acme/' });
    await t.db.updateTable('users').set({ password_must_change: true }).where('id', '=', 'changer').execute();
  });

  it('sends the sign-in form to the change-password step', async () => {
    const json = await t.app.inject(signinForm('changer', PASSWORD));
    expect(json.statusCode).toBe(403);
    expect(json.json().code).toBe('passwordMustChange');
    const plain = await t.app.inject({
      method: 'POST',
      url: '/signin',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://localhost:80',
        host: 'localhost:80',
      },
      payload: new URLSearchParams({
        username: 'changer',
        password: PASSWORD,
        'return-url': '/help',
      }).toString(),
    });
    expect(plain.statusCode).toBe(303);
    expect(plain.headers.location).toBe('/account/change-password?username=changer&return-url=%2Fhelp');
  });

  it('changes the password, clears the flag and signs in', async () => {
    const c = caller(t.app);
    const weak = await c.post('/account/change-password', {
      username: 'changer',
      password: PASSWORD,
      newPassword: 'weak',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().fields.newPassword).toContain('Password does not meet the minimum requirements.');
    const wrong = await c.post('/account/change-password', {
      username: 'changer',
      password: 'x',
      newPassword: 'Brand-New-Pass-1',
    });
    expect(wrong.statusCode).toBe(401);
    const ok = await c.post('/account/change-password', {
      username: 'changer',
      password: PASSWORD,
      newPassword: 'Brand-New-Pass-1',
      returnUrl: '/help',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true, returnUrl: '/help' });
    expect(ok.cookies.some((k) => k.name === 'dossier_session')).toBe(true);
    expect((await t.app.inject(signinForm('changer', 'Brand-New-Pass-1'))).statusCode).toBe(200);
  });
});
