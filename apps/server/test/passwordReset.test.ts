import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { mailResetLink, RESET_QUEUE, requestPasswordReset } from '../src/features/passwordReset/service.js';
import type { JobQueue } from '../src/jobs/queue.js';
import { listMailTo } from '../src/mail/outbox.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'rosa', scope: '/org/acme/' });
});
afterAll(() => t.close());

const post = (url: string, payload: object, ip = '10.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...XHR, 'x-forwarded-for': ip },
    payload,
    remoteAddress: ip,
  });

function tokenFrom(text: string): string {
  const match = /set-password\?token=([\w%-]+)/.exec(text);
  if (!match) throw new Error(`no link in ${text}`);
  return decodeURIComponent(match[1]!); // the pattern's only group always takes part
}

describe('password reset', () => {
  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const known = await post('/reset-password', { email: 'Rosa@Test.Example' });
    const unknown = await post('/reset-password', { email: 'nobody@test.example' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual({ $type: 'passwordResetRequested', email: 'Rosa@Test.Example' });
    expect(unknown.json()).toEqual({ $type: 'passwordResetRequested', email: 'nobody@test.example' });
    expect(await listMailTo(t.db, 'nobody@test.example')).toHaveLength(0);
    const [mail] = await listMailTo(t.db, 'rosa@test.example');
    assert(mail);
    expect(mail.subject).toBe('Reset your password');
  });

  it('sets a new password once with the link, which then has expired', async () => {
    await post('/reset-password', { email: 'rosa@test.example' }, '10.0.0.2');
    const token = tokenFrom((await listMailTo(t.db, 'rosa@test.example'))[0]?.text ?? '');
    const view = await t.app.inject({
      url: `/set-password?token=${encodeURIComponent(token)}`,
      headers: XHR,
    });
    expect(view.json()).toMatchObject({
      $type: 'setPassword',
      title: 'Set Password',
      userId: 'rosa',
      requireRepeat: true,
      firstPassword: false,
    });

    const weak = await post('/set-password', { token, password: 'short' }, '10.0.0.2');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().fields.password).toContain('Password does not meet the minimum requirements.');
    const mismatch = await post(
      '/set-password',
      { token, password: 'New-Password-42', repeat: 'other' },
      '10.0.0.2',
    );
    expect(mismatch.json().fields.repeat).toBe('Repeated password does not match.');

    const done = await post(
      '/set-password',
      { token, password: 'New-Password-42', repeat: 'New-Password-42' },
      '10.0.0.2',
    );
    expect(done.json()).toEqual({
      $type: 'passwordChanged',
      title: 'Password Changed',
      userId: 'rosa',
      firstPassword: false,
    });
    expect(await signIn(t.app, 'rosa', 'New-Password-42')).toMatch(/^dossier_session=/);

    const again = await post('/set-password', { token, password: 'Another-Pass-42' }, '10.0.0.2');
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('The link has expired.');
    const expired = await t.app.inject({
      url: `/set-password?token=${encodeURIComponent(token)}`,
      headers: XHR,
    });
    expect(expired.json()).toMatchObject({ userId: null, error: 'The link has expired.' });
  });

  it('limits requests per network address and per account in minutes, saying when to try again', async () => {
    // An office behind one address: 20 people may ask within 15 minutes.
    for (let i = 0; i < 20; i++)
      expect((await post('/reset-password', { email: `p${i}@test.example` }, '10.0.0.9')).statusCode).toBe(
        200,
      );
    const limited = await post('/reset-password', { email: 'other@test.example' }, '10.0.0.9');
    expect(limited.statusCode).toBe(429);
    const wait = Number(limited.headers['retry-after']);
    expect(wait).toBeGreaterThan(14 * 60);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect(limited.json().message).toBe(
      'Too many password reset requests from your network address. Please try again in 15 minutes.',
    );
    // One account: three requests in 15 minutes, from any addresses, known or not.
    for (let i = 0; i < 3; i++)
      expect((await post('/reset-password', { email: 'X@test.example' }, `10.0.3.${i}`)).statusCode).toBe(
        200,
      );
    const account = await post('/reset-password', { email: 'x@test.example ' }, '10.0.3.9');
    expect(account.statusCode).toBe(429);
    expect(account.json().message).toMatch(
      /^Too many password reset requests for this email address\. Please try again in 1[45] minutes\.$/,
    );
    const bad = await post('/reset-password', { email: 'not-an-email' }, '10.0.0.8');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.email).toBe('Enter a valid email address.');
  });

  it('keeps one live link per user, taken once even by parallel uses, and ends every session', async () => {
    await createUser(t.db, { id: 'pia', scope: '/org/acme/' });
    const session = await signIn(t.app, 'pia');
    await post('/reset-password', { email: 'pia@test.example' }, '10.0.1.1');
    await post('/reset-password', { email: 'pia@test.example' }, '10.0.1.2');
    const tokens = (await listMailTo(t.db, 'pia@test.example')).map((m) => tokenFrom(m.text));
    expect(new Set(tokens).size).toBe(2);
    const answers = await Promise.all(
      [...tokens, ...tokens, ...tokens, ...tokens].map((token, i) =>
        post('/set-password', { token, password: `Parallel-Pass-${i}0` }, '10.0.1.3'),
      ),
    );
    // Only the newest link works, and only once.
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode !== 200).every((a) => a.statusCode === 400)).toBe(true);
    const me = await t.app.inject({ url: '/account', headers: { ...XHR, cookie: session } });
    expect(me.statusCode).toBe(401);
  });

  it('mails one address at most three times in 15 minutes, whoever asks', async () => {
    await createUser(t.db, { id: 'quinn', scope: '/org/acme/' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const email = i % 2 ? 'Quinn@Test.Example' : 'quinn@test.example';
      statuses.push((await post('/reset-password', { email }, `10.0.2.${i}`)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(await listMailTo(t.db, 'quinn@test.example')).toHaveLength(3);
  });

  it('with a job queue, does the same work for a known and an unknown address: one queued job', async () => {
    const sent: { queue: string; data: unknown }[] = [];
    const jobs = {
      send: async (_db: unknown, queue: string, data: unknown) => {
        sent.push({ queue, data });
      },
    } as unknown as JobQueue;
    const input = (email: string) => ({ email, ip: '10.0.3.1', baseUrl: 'http://localhost' });
    await requestPasswordReset(t.db, jobs, input('rosa@test.example'));
    await requestPasswordReset(t.db, jobs, input('nobody-at-all@test.example'));
    expect(sent.map((s) => s.queue)).toEqual([RESET_QUEUE, RESET_QUEUE]);
    // Nothing was looked up or mailed in the request: the job does that.
    const before = (await listMailTo(t.db, 'rosa@test.example')).length;
    await mailResetLink(t.db, input('rosa@test.example'));
    expect(await listMailTo(t.db, 'rosa@test.example')).toHaveLength(before + 1);
  });
});
