import { describe, expect, it } from 'vitest';
import {
  formatRecoveryCode,
  isRecoveryCode,
  isTimeBasedCode,
  mustHoldSecondFactor,
  normaliseSecondFactorCode,
  removalNeedsReauthentication,
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
