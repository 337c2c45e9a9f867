import { describe, expect, it } from 'vitest';
import {
  checkPassword,
  checkPasswordRepeat,
  cleanAddress,
  cleanWebAddress,
  emailSchema,
  formatPhone,
  isValidEmail,
  normalizeCountry,
  normalizePhone,
  parseAddress,
  phoneSearchTerm,
  searchSummary,
  validateUserId,
} from '../src/index.js';

describe('phone numbers', () => {
  it.each([
    ['+61 2 9876 5432', undefined, '+61298765432'],
    ['0061 2 9876 5432', undefined, '+61298765432'],
    ['02 9876 5432', undefined, '+61298765432'],
    ['(02) 9876-5432', 'AU', '+61298765432'],
    ['0412 345 678', 'AU', '+61412345678'],
    // Dialled only within Australia: kept as the digits one dials, however they were typed.
    ['13 1234', undefined, '131234'],
    ['1300 123 456', undefined, '1300123456'],
    ['18 1234', undefined, '181234'],
    ['1800 123 456', 'AU', '1800123456'],
    ['+61 1300 123 456', undefined, '1300123456'],
    ['412 345 678', undefined, '+61412345678'],
    ['2 9876 5432', undefined, '+61298765432'],
    ['09 123 4567', 'NZ', '+6491234567'],
    ['+1 212 555 0100', 'NZ', '+12125550100'],
    ['+1234', undefined, '+1234'],
    ['+123456789012345', undefined, '+123456789012345'],
  ])('%s (country %s) becomes %s', (input, country, expected) => {
    expect(normalizePhone(input, country)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['', undefined],
    ['+123', undefined], // 4 characters
    ['+1234567890123456', undefined], // 17 characters
    ['12345', undefined], // no known local format
    ['98765432', 'AU'], // 8 digits is no +61 format
    ['+61 2 abc', undefined],
    ['phone', undefined],
  ])('rejects %s', (input, country) => {
    expect(normalizePhone(input, country).ok).toBe(false);
  });
});

describe('phone numbers shown', () => {
  it.each([
    ['1300123456', '1300 123 456'],
    ['131234', '13 12 34'],
    ['+61298765432', '+61 2 9876 5432'],
  ])('%s reads %s', (stored, shown) => expect(formatPhone(stored)).toBe(shown));
});

describe('email addresses', () => {
  it.each([
    ['a@b.example', true],
    ['first.last+tag@sub.example.com.au', true],
    [`x@${'a'.repeat(63)}.example`, true],
    [`x@${'a'.repeat(64)}.example`, false],
    ['no-at.example', false],
    ['@example.com', false],
    ['a@', false],
    ['a@-bad.example', false],
    ['a@bad-.example', false],
    ['a@double..dot', false],
    ['a@localhost', false],
    ['a b@example.com', false],
  ])('%s is valid: %s', (input, valid) => {
    expect(isValidEmail(input)).toBe(valid);
    // The route schema is the same rule, so server and browser refuse the same addresses.
    expect(emailSchema.safeParse(input).success).toBe(valid);
    expect(emailSchema.safeParse(` ${input} `).success).toBe(valid);
  });
});

describe('user ids', () => {
  it.each(['abc', 'j.smith', 'user_1', 'me@example.com', 'a.b@c.example'])('accepts %s', (id) => {
    expect(validateUserId(id)).toEqual({ ok: true, value: id });
  });
  it.each([
    ['ab', 'at least 3'],
    ['Abc', 'lowercase'],
    ['a-b-c', 'lowercase'],
    ['a b c', 'lowercase'],
    ['abc@', 'valid email'],
    ['@abc', 'valid email'],
  ])('rejects %s', (id, words) => {
    const result = validateUserId(id);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(words);
  });
});

describe('password policy', () => {
  it('accepts a password meeting the default policy', () => {
    expect(checkPassword('Correct-Horse-9')).toBeUndefined();
  });
  it('lists every unmet rule with its required count', () => {
    expect(checkPassword('abc')).toBe(
      [
        'Password does not meet the minimum requirements.',
        'Length: 10',
        'Upper case letters: 1',
        'Digits: 1',
        'Symbols/Punctuation: 1',
      ].join('\n'),
    );
  });
  it('applies a scope policy', () => {
    const policy = { minLength: 4, minUpperCase: 2, minLowerCase: 0, minDigits: 3, minSymbolOrPunctation: 0 };
    expect(checkPassword('AB123', policy)).toBeUndefined();
    expect(checkPassword('Ab123', policy)).toBe(
      'Password does not meet the minimum requirements.\nUpper case letters: 2',
    );
  });
  it('counts non-ASCII letters and symbols', () => {
    expect(checkPassword('Ä¤ßßßßßßß9€')).toBeUndefined();
  });
  it('checks the repeat', () => {
    expect(checkPasswordRepeat('a', 'a')).toBeUndefined();
    expect(checkPasswordRepeat('a', 'b')).toBe('Repeated password does not match.');
  });
});

describe('address parsing', () => {
  it('removes commas, trims lines and drops empty ones', () => {
    expect(parseAddress(' 1 Main St, \n\n  Sydney, NSW 2000 \r\n , \n')).toEqual([
      '1 Main St',
      'Sydney NSW 2000',
    ]);
    expect(parseAddress('Level 3,8 Macquarie St\nSydney , NSW,2000')).toEqual([
      'Level 3 8 Macquarie St',
      'Sydney NSW 2000',
    ]);
  });
});

describe('search summary', () => {
  it.each([
    [{ total: 0, hits: [], paging: { offset: 0 } }, 'No matching search result.'],
    [{ total: 2, hits: [1, 2], paging: { offset: 0 } }, 'Showing 2 search result(s).'],
    [{ total: 45, hits: Array(20), paging: { offset: 20 } }, 'Showing search result 21 to 40 out of 45.'],
    [{ total: 45, hits: Array(20), paging: { offset: 0 } }, 'Showing search result 1 to 20 out of 45.'],
    [
      { total: 10000, hits: Array(20), paging: { offset: 40 }, totalIsCapped: true },
      'Showing search result 41 to 60 out of more than 10000.',
    ],
  ])('%o', (answer, text) => {
    expect(searchSummary(answer)).toBe(text);
  });
});

describe('phone search terms match numbers as stored', () => {
  it.each([
    ['02 9876 5432', '298765432'],
    ['(02) 9876-5432', '298765432'],
    ['+61 2 9876 5432', '+61298765432'],
    ['0061 2 9876 5432', '+61298765432'],
    ['9876 5432', '98765432'],
    ['5432', '5432'],
  ])('%j searches for %j', (typed, term) => {
    expect(phoneSearchTerm(typed)).toBe(term);
    // Whatever the country code of the stored number, a national number is found in it.
    if (typed.startsWith('0') && !typed.startsWith('00')) {
      expect('+61298765432').toContain(term);
      expect('+64298765432').toContain(term);
    }
  });
});

describe('what a field keeps once left (shared input rules)', () => {
  it.each([
    ['https://user:pw@host.example/x', 'https://host.example/x'],
    ['  http://host.example  ', 'http://host.example/'],
    ['not a url', 'not a url'],
  ])('web address %j → %j', (typed, kept) => expect(cleanWebAddress(typed)).toBe(kept));
  it('address: commas removed, lines trimmed, empty lines dropped', () => {
    expect(cleanAddress(' 8 Macquarie St, \n\n  Sydney, NSW 2000 \n')).toBe(
      '8 Macquarie St\nSydney NSW 2000',
    );
  });
  it.each([
    ['Australia', 'AU'],
    ['au', 'AU'],
    ['new zealand', 'NZ'],
    ['', null],
  ])('country %j → %j', (typed, code) => expect(normalizeCountry(typed)).toEqual({ ok: true, value: code }));
  it.each(['zz', 'Au stralia', 'Atlantis'])('country %j is refused', (typed) =>
    expect(normalizeCountry(typed)).toEqual({ ok: false, message: 'Choose a country from the list.' }),
  );
});
