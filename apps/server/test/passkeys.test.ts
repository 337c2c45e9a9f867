import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, PASSWORD, signIn, type TestContext, XHR } from './helpers.js';
import { SoftAuthenticator } from './support/softAuthenticator.js';

// Passkeys (issue 35): enrolment on the account page, the second step of a sign-in, passwordless
// sign-in where the configuration allows it, and the refusals (wrong challenge, unknown
// credential, replayed counter, no user verification), with a software authenticator.

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext({
    signin: {
      maxFailures: 5,
      lockMinutes: 15,
      ipLimitPerWindow: 1000,
      passkeySignIn: true,
      rememberDevice: false,
    },
  });
  for (const id of ['pia', 'pete', 'paul', 'pam']) await createUser(t.db, { id });
});
afterAll(() => t.close());

const post = (url: string, payload: object | undefined, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...XHR, ...(cookie ? { cookie } : {}) },
    ...(payload ? { payload } : {}),
  });

const cookieOf = (res: { cookies: { name: string; value: string }[] }, name: string) =>
  `${name}=${res.cookies.find((c) => c.name === name)?.value}`;

async function enrolPasskey(user: string, name = 'Laptop') {
  const cookie = await signIn(t.app, user);
  const options = await post('/account/passkeys/options', undefined, cookie);
  expect(options.statusCode).toBe(200);
  expect(options.json().authenticatorSelection).toMatchObject({ userVerification: 'required' });
  const authenticator = new SoftAuthenticator();
  const added = await post(
    '/account/passkeys',
    { name, response: authenticator.register(options.json().challenge) },
    cookie,
  );
  expect(added.statusCode).toBe(200);
  return { cookie, authenticator, recoveryCodes: added.json().recoveryCodes as string[] | null };
}

async function password(user: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/signin',
    headers: { ...XHR, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username: user, password: PASSWORD }).toString(),
  });
  expect(res.json()).toEqual({ user: null, secondFactor: true });
  return cookieOf(res, 'dossier_signin_challenge');
}

async function challengeFor(cookie?: string): Promise<string> {
  const res = await post('/signin/passkey/options', undefined, cookie);
  expect(res.statusCode).toBe(200);
  return res.json().challenge;
}

describe('passkeys', () => {
  it('enrols a named passkey, listed with the other factors, with the first recovery codes', async () => {
    const { cookie, recoveryCodes } = await enrolPasskey('pia');
    expect(recoveryCodes).toHaveLength(10);
    const list = await t.app.inject({ url: '/account/second-factors', headers: { ...XHR, cookie } });
    expect(list.json().factors).toEqual([expect.objectContaining({ name: 'Laptop', kind: 'passkey' })]);
    // The same passkey again is refused: the options exclude it, and its id is taken.
    const options = await post('/account/passkeys/options', undefined, cookie);
    expect(options.json().excludeCredentials).toHaveLength(1);
  });

  it('is the second step after the password, and the other sessions end', async () => {
    const { cookie: earlier, authenticator } = await enrolPasskey('pete');
    const challengeCookie = await password('pete');
    const page = await t.app.inject({
      url: '/signin?step=code',
      headers: { ...XHR, cookie: challengeCookie },
    });
    expect(page.json()).toMatchObject({ secondStep: true, passkey: true });
    const options = await post('/signin/passkey/options', undefined, challengeCookie);
    expect(options.json().allowCredentials).toEqual([expect.objectContaining({ id: authenticator.id })]);
    const signedIn = await post(
      '/signin/passkey',
      { response: authenticator.authenticate(options.json().challenge), 'return-url': '/help' },
      challengeCookie,
    );
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { id: 'pete' }, redirect: '/help' });
    const old = await t.app.inject({ url: '/account', headers: { ...XHR, cookie: earlier } });
    expect(old.statusCode).toBe(401);
  });

  it('signs in alone where the configuration allows it, and not where it does not', async () => {
    const { authenticator } = await enrolPasskey('paul');
    const signedIn = await post('/signin/passkey', {
      response: authenticator.authenticate(await challengeFor()),
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user.id).toBe('paul');
    // Beginning a passwordless sign-in is limited per address (each is a row for five minutes).
    const many = [];
    for (let i = 0; i < 31; i++)
      many.push(
        await t.app.inject({
          method: 'POST',
          url: '/signin/passkey/options',
          headers: XHR,
          remoteAddress: '10.5.5.5',
        }),
      );
    const limited = many.filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(1);
    expect(limited[0]?.json().message).toMatch(
      /^Too many passkey sign-ins from this address\. Please try again in /,
    );
    t.config.signin.passkeySignIn = false;
    try {
      const refused = await post('/signin/passkey/options', undefined);
      expect(refused.statusCode).toBe(404);
      expect((await t.app.inject({ url: '/signin', headers: XHR })).json().passkeySignIn).toBeUndefined();
    } finally {
      t.config.signin.passkeySignIn = true;
    }
  });

  it('refuses a wrong challenge, an unknown credential, a replayed counter and no user verification', async () => {
    const { cookie, authenticator } = await enrolPasskey('pam');
    // Enrolment without user verification (no PIN, no fingerprint) is refused.
    const fresh = await post('/account/passkeys/options', undefined, cookie);
    const noUv = await post(
      '/account/passkeys',
      {
        name: 'Key',
        response: new SoftAuthenticator().register(fresh.json().challenge, { userVerified: false }),
      },
      cookie,
    );
    expect(noUv.statusCode).toBe(400);
    // A challenge this server never gave.
    const wrong = await post('/signin/passkey', { response: authenticator.authenticate('bm90LW91cnM') });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('expired');
    // Taken once: the same signed answer again is refused.
    const response = authenticator.authenticate(await challengeFor());
    expect((await post('/signin/passkey', { response })).statusCode).toBe(200);
    expect((await post('/signin/passkey', { response })).json().code).toBe('expired');
    // A passkey nobody added here.
    const stranger = new SoftAuthenticator();
    const unknown = await post('/signin/passkey', { response: stranger.authenticate(await challengeFor()) });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().code).toBe('unknown');
    // A counter that does not move on: a replay or a cloned authenticator.
    const replayed = await post('/signin/passkey', {
      response: authenticator.authenticate(await challengeFor(), { advance: false }),
    });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({
      code: 'notVerified',
      message: 'The passkey could not be verified.',
    });
    // A passkey of another user is no second step of this one.
    const challengeCookie = await password('pete');
    const options = await post('/signin/passkey/options', undefined, challengeCookie);
    const foreign = await post(
      '/signin/passkey',
      { response: authenticator.authenticate(options.json().challenge) },
      challengeCookie,
    );
    expect(foreign.json().code).toBe('unknown');
    // Client data that is no JSON.
    const garbage = await post('/signin/passkey', {
      response: {
        ...authenticator.authenticate('x'),
        response: { clientDataJSON: 'AAAA', authenticatorData: 'AA', signature: 'AA' },
      },
    });
    expect(garbage.statusCode).toBe(400);
  });
});
