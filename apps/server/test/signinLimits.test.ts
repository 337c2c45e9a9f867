import { sql } from 'kysely';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { seedScopes } from './accountsHelpers.js';
import { createTestContext, createUser, PASSWORD, signIn, type TestContext, XHR } from './helpers.js';

// Limits that spare an office (issue 35 item 5): failures count per account and per address, but
// the address limit holds back only what fails.

let t: TestContext;
const IP_LIMIT = 20;

beforeAll(async () => {
  t = await createTestContext({
    signin: { maxFailures: 5, lockMinutes: 15, ipLimitPerWindow: IP_LIMIT },
  } as never);
  await seedScopes(t.db);
  for (const id of ['olga', 'otto', 'lena', 'toni', 'tess', 'sam']) await createUser(t.db, { id });
});
afterAll(() => t.close());

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const attempt = (ip: string, username: string, password: string, json = true) =>
  t.app.inject({
    method: 'POST',
    url: '/signin',
    headers: json ? { ...XHR, ...form } : { ...form, origin: 'http://localhost:80', host: 'localhost:80' },
    payload: new URLSearchParams({ username, password }).toString(),
    remoteAddress: ip,
  });

async function failTimes(ip: string, n: number) {
  // Unknown names: no account gets locked, only the address counts.
  for (let i = 0; i < n; i++) expect((await attempt(ip, `stranger${i}`, 'wrong')).statusCode).toBe(401);
}

describe('the address limit', () => {
  it('does not refuse another user’s right password after 20 failures from one address', async () => {
    await failTimes('10.9.0.1', IP_LIMIT);
    const wrong = await attempt('10.9.0.1', 'olga', 'not-hers');
    expect(wrong.statusCode).toBe(429);
    const wait = Number(wrong.headers['retry-after']);
    expect(wait).toBeGreaterThan(14 * 60);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect(wrong.json().message).toBe(
      'Too many failed sign-ins from this address. Please try again in 15 minutes.',
    );
    expect((await attempt('10.9.0.1', 'otto', PASSWORD)).statusCode).toBe(200);
    // Unknown names are slowed too.
    expect((await attempt('10.9.0.1', 'nobody', PASSWORD)).statusCode).toBe(429);
    // The plain form goes back to the page, which says when to try again.
    const page = await attempt('10.9.0.1', 'nobody', 'x', false);
    expect(page.headers.location).toMatch(/err=tooMany.*&retry=\d+/);
    const shown = await t.app.inject({ url: page.headers.location as string, headers: XHR });
    expect(shown.json().err).toMatch(
      /^Too many failed sign-ins from this address\. Please try again in 1[45] minutes\.$/,
    );
  });

  it('accepts the right password and code of a user with a second factor from that address', async () => {
    const cookie = await signIn(t.app, 'toni');
    const begun = await t.app.inject({
      method: 'POST',
      url: '/account/second-factors',
      headers: { ...XHR, cookie },
      payload: { kind: 'totp' },
    });
    const { id, secret } = begun.json();
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
    await t.app.inject({
      method: 'POST',
      url: `/account/second-factors/${id}/confirm`,
      headers: { ...XHR, cookie },
      payload: { name: 'Phone', code: totp.generate({ timestamp: Date.now() - 30_000 }) },
    });
    await failTimes('10.9.0.2', IP_LIMIT);
    const first = await attempt('10.9.0.2', 'toni', PASSWORD);
    expect(first.json()).toEqual({ user: null, secondFactor: true });
    const challenge = `dossier_signin_challenge=${first.cookies.find((c) => c.name === 'dossier_signin_challenge')?.value}`;
    const step = (code: string) =>
      t.app.inject({
        method: 'POST',
        url: '/signin/second-factor',
        headers: { ...XHR, cookie: challenge },
        payload: { code },
        remoteAddress: '10.9.0.2',
      });
    const wrongCode = await step('000000');
    expect(wrongCode.statusCode).toBe(429);
    expect(Number(wrongCode.headers['retry-after'])).toBeGreaterThan(0);
    const right = await step(totp.generate());
    expect(right.statusCode).toBe(200);
    expect(right.json().user.id).toBe('toni');
  });

  it('keeps a locked account locked and says for how long', async () => {
    for (let i = 0; i < 5; i++) await attempt('10.9.0.3', 'lena', 'wrong');
    const locked = await attempt('10.9.0.4', 'lena', PASSWORD);
    expect(locked.statusCode).toBe(401);
    expect(locked.json().message).toBe(
      'This account is temporarily locked after repeated failed sign-ins. Please try again in 15 minutes.',
    );
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
  });

  it('is lifted for the root scope’s trusted addresses, while accounts still lock', async () => {
    const setTrusted = async (cidrs: string[]) => {
      await sql`update configuration_entries set data = jsonb_set(data, '{trustedAddresses}', ${JSON.stringify(cidrs)}::jsonb)
                where configuration_id = (select id from configurations where scope_path = '/') and id = 'scopeRoot'`.execute(
        t.db,
      );
      invalidateConfigurationCache(t.db);
    };
    await setTrusted(['10.8.0.0/16']);
    try {
      await failTimes('10.8.3.4', IP_LIMIT + 5);
      expect((await attempt('10.8.3.4', 'tess', 'wrong')).statusCode).toBe(401);
      for (let i = 0; i < 5; i++) await attempt('10.8.3.4', 'sam', 'wrong');
      expect((await attempt('10.8.3.4', 'sam', PASSWORD)).json().code).toBe('locked');
      // An address outside the range is still held back.
      await failTimes('10.7.0.1', IP_LIMIT);
      expect((await attempt('10.7.0.1', 'tess', 'wrong')).statusCode).toBe(429);
    } finally {
      await setTrusted([]);
    }
  });
});
