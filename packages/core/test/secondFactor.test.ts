import { describe, expect, it } from 'vitest';
import {
  formatRecoveryCode,
  grantsNeedSecondFactor,
  isRecoveryCode,
  isTimeBasedCode,
  mustHoldSecondFactor,
  normaliseSecondFactorCode,
  removalNeedsReauthentication,
  secondFactorRolesAt,
  ssoTokenHasSecondFactor,
  tryAgainIn,
} from '../src/secondFactor.js';

describe('second factor codes', () => {
  it('reads a code generator code with spaces as six digits', () => {
    expect(isTimeBasedCode('123 456')).toBe(true);
    expect(isTimeBasedCode('12345')).toBe(false);
    expect(isTimeBasedCode('12345a')).toBe(false);
  });

  it('reads a recovery code in either case, with or without its dash', () => {
    expect(normaliseSecondFactorCode('ABCDE-12345')).toBe('abcde12345');
    expect(isRecoveryCode('ABCDE-12345')).toBe(true);
    expect(isRecoveryCode('abcde1234')).toBe(false);
    expect(formatRecoveryCode('abcde12345')).toBe('abcde-12345');
  });
});

describe('required second factor', () => {
  it('is required when one of the user roles is named by the scope', () => {
    expect(mustHoldSecondFactor(['c:roles:administrator'], ['c:roles:administrator'])).toBe(true);
    expect(mustHoldSecondFactor(['c:roles:handler'], ['c:roles:administrator'])).toBe(false);
    expect(mustHoldSecondFactor(['c:roles:administrator'], undefined)).toBe(false);
    expect(mustHoldSecondFactor(['c:roles:administrator'], [])).toBe(false);
  });

  it('asks the password and a code to remove the last factor only', () => {
    expect(removalNeedsReauthentication(1)).toBe(true);
    expect(removalNeedsReauthentication(2)).toBe(false);
  });
});

describe('a requirement inherited down the tree', () => {
  const entries = [
    { scopePath: '/', secondFactorRoles: ['c:roles:admin'] },
    { scopePath: '/org/acme/', secondFactorRoles: ['c:roles:handler'] },
    { scopePath: '/org/globex/', secondFactorRoles: [] },
  ];

  it('adds the roles of every scope above, and a scope below cannot lift them', () => {
    expect(secondFactorRolesAt('/org/acme/east/', entries)).toEqual(['c:roles:admin', 'c:roles:handler']);
    expect(secondFactorRolesAt('/org/globex/', entries)).toEqual(['c:roles:admin']);
    expect(secondFactorRolesAt('/org/acmeplus/', entries)).toEqual(['c:roles:admin']);
  });

  it('holds for a user when one of its grants falls under it', () => {
    expect(grantsNeedSecondFactor([{ role: 'c:roles:handler', scope: '/org/acme/' }], entries)).toBe(true);
    expect(grantsNeedSecondFactor([{ role: 'c:roles:handler', scope: '/org/globex/' }], entries)).toBe(false);
    expect(grantsNeedSecondFactor([], entries)).toBe(false);
  });
});

describe('ssoTokenHasSecondFactor', () => {
  it.each([
    [{ amr: ['pwd', 'otp'] }, [], true],
    [{ amr: ['hwk'] }, [], true],
    [{ amr: ['swk'] }, [], true],
    [{ amr: ['mfa'] }, [], true],
    [{ amr: ['pwd'] }, [], false],
    [{}, [], false],
    [undefined, [], false],
    [{ amr: 'otp' }, [], false],
    [{ acr: 'urn:idp:loa:2' }, ['urn:idp:loa:2'], true],
    [{ acr: 'urn:idp:loa:1' }, ['urn:idp:loa:2'], false],
    [{ acr: 'urn:idp:loa:2' }, [], false],
  ])('%j with accepted acr %j: %s', (claims, acr, expected) => {
    expect(ssoTokenHasSecondFactor(claims, acr)).toBe(expected);
  });
});

describe('tryAgainIn', () => {
  it.each([
    [1, 'Please try again in 1 second.'],
    [30, 'Please try again in 30 seconds.'],
    [59.2, 'Please try again in 1 minute.'],
    [60, 'Please try again in 1 minute.'],
    [61, 'Please try again in 2 minutes.'],
    [900, 'Please try again in 15 minutes.'],
  ])('%s seconds: %s', (seconds, text) => {
    expect(tryAgainIn(seconds)).toBe(text);
  });
});
