import { describe, expect, it } from 'vitest';
import { checkDigits, createRequestNumber, isValidRequestNumber } from '../src/requestNumber.js';

describe('request numbers', () => {
  it('are prefix, YYMMDD, three letters and two check digits', () => {
    const n = createRequestNumber('acm', new Date('2025-11-22T10:00:00Z'), () => 0.5);
    expect(n).toMatch(/^ACM251122NNN\d{2}$/);
    expect(isValidRequestNumber(n)).toBe(true);
  });

  it("carry the day of submission in the business's time zone (Sydney), not UTC's", () => {
    // 2:31 am on 30 Nov in Sydney is still 29 Nov in UTC.
    expect(createRequestNumber('ACM', new Date('2026-11-29T15:31:00Z'), () => 0.5)).toMatch(/^ACM261130/);
    // 10:30 pm on 30 June in Sydney (winter, UTC+10) is 12:30 pm UTC the same day.
    expect(createRequestNumber('ACM', new Date('2026-06-30T12:30:00Z'), () => 0.5)).toMatch(/^ACM260630/);
  });

  it('compute ISO 7064 MOD 97-10 check digits as IBANs do', () => {
    // The IBAN GB82 WEST 1234 5698 7654 32 rearranged: body + country + check must give 1 mod 97.
    expect(checkDigits('WEST12345698765432GB')).toBe('82');
  });

  it('catch every single mistyped character and swapped neighbours', () => {
    const n = createRequestNumber('ACM', new Date('2026-01-05T00:00:00Z'), () => 0.1);
    for (const [i, c] of [...n].entries()) {
      const replacement = /\d/.test(c) ? String((Number(c) + 1) % 10) : c === 'Z' ? 'A' : 'Z';
      expect(isValidRequestNumber(n.slice(0, i) + replacement + n.slice(i + 1))).toBe(false);
    }
    const swapped = n.slice(0, 3) + n[4] + n[3] + n.slice(5);
    if (swapped !== n) expect(isValidRequestNumber(swapped)).toBe(false);
  });

  it.each(['', 'ACM251122QXT4', 'ACM25112QXT42', 'acm251122qxt42', 'ACM251122QXT42X'])('reject %s', (v) =>
    expect(isValidRequestNumber(v)).toBe(false),
  );
});
