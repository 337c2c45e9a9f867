import { describe, expect, it } from 'vitest';
import {
  detectLinks,
  formatIsoTimeOfDay,
  isIdentifier,
  isRequestNumberPrefix,
  mentionQueryAt,
  nestedId,
  normalizeRequestNumberPrefix,
  normalizeUrl,
  parseAddressLines,
  parseDecimalInput,
  parseHolidayDate,
  parseHolidayLines,
  parseIntegerInput,
  parseIsoTimeOfDay,
  parseLines,
  timeInputToIso,
  toIsoTimeOfDay,
} from '../src/index.js';

describe('identifier', () => {
  it.each(['a', 'abc', 'aB1', 'issueRequest', 'x9'])('accepts %s', (v) => expect(isIdentifier(v)).toBe(true));
  it.each(['', 'A', '1a', 'a-b', 'a_b', 'a b', 'a:b', 'é'])('rejects %s', (v) =>
    expect(isIdentifier(v)).toBe(false),
  );
  it.each(['a:b', 'a:bC:c1'])('accepts %s with colons enabled', (v) =>
    expect(isIdentifier(v, { allowColon: true })).toBe(true),
  );
  it.each([':a', 'a:', 'a::b', 'a:B'])('rejects %s with colons enabled', (v) =>
    expect(isIdentifier(v, { allowColon: true })).toBe(false),
  );
  it('prefixes nested ids', () => {
    expect(nestedId(undefined, 'b')).toBe('b');
    expect(nestedId('a', 'b')).toBe('a:b');
  });
});

describe('integer and decimal inputs', () => {
  it.each([
    ['12', {}, 12],
    [' 7 ', {}, 7],
    ['0', { min: 1 }, 1],
    ['500', { max: 365 }, 365],
    ['-1', {}, undefined],
    ['1.5', {}, undefined],
    ['1e3', {}, undefined],
    ['', {}, undefined],
    ['abc', {}, undefined],
  ] as const)('integer %j %j -> %j', (text, opts, out) => expect(parseIntegerInput(text, opts)).toBe(out));
  it.each([
    ['1', {}, 1],
    ['1.5', {}, 1.5],
    ['1.25', {}, 1.25],
    ['1.255', {}, undefined],
    ['.5', {}, undefined],
    ['10.5', { max: 10 }, 10],
    ['0.01', { min: 1 }, 1],
    ['x', {}, undefined],
  ] as const)('decimal %j %j -> %j', (text, opts, out) => expect(parseDecimalInput(text, opts)).toBe(out));
});

describe('request number prefix', () => {
  it.each([
    ['acm', 'ACM'],
    ['acme', 'ACM'],
    ['a', 'A'],
  ])('input %s becomes %s', (input, out) => expect(normalizeRequestNumberPrefix(input)).toBe(out));
  it.each(['ACM', 'DOS'])('accepts %s', (v) => expect(isRequestNumberPrefix(v)).toBe(true));
  it.each(['AC', 'ACME', 'acm', 'A1C', ''])('rejects %s', (v) =>
    expect(isRequestNumberPrefix(v)).toBe(false),
  );
});

describe('URL', () => {
  it.each([
    ['https://example.com/hook', {}, 'https://example.com/hook'],
    ['http://example.com', {}, 'http://example.com/'],
    ['https://user:secret@example.com/x', {}, 'https://example.com/x'],
    ['example.com', {}, ''],
    ['javascript://alert(1)', {}, ''],
    ['ftp://example.com', {}, ''],
    ['http://example.com', { httpsOnly: true }, ''],
    ['https://example.com', { httpsOnly: true }, 'https://example.com/'],
    ['https://', {}, ''],
    ['not a url', {}, ''],
  ] as const)('%s %j -> %j', (input, opts, out) => expect(normalizeUrl(input, opts)).toBe(out));
});

describe('time of day', () => {
  it.each([
    ['PT9H30M', { hours: 9, minutes: 30, seconds: 0 }],
    ['PT17H0M15S', { hours: 17, minutes: 0, seconds: 15 }],
    ['PT0H5M', { hours: 0, minutes: 5, seconds: 0 }],
    ['PT24H', undefined],
    ['PT', undefined],
    ['9:30', undefined],
  ])('reads %s', (v, out) => expect(parseIsoTimeOfDay(v)).toEqual(out));
  it.each([
    ['9:30', 'PT9H30M'],
    ['09:05:07', 'PT9H5M7S'],
    ['23:59', 'PT23H59M'],
    ['24:00', undefined],
    ['9.30', undefined],
  ])('typed %s is %s', (v, out) => expect(timeInputToIso(v)).toBe(out));
  it('writes and shows it', () => {
    expect(toIsoTimeOfDay({ hours: 8, minutes: 0 })).toBe('PT8H0M');
    expect(formatIsoTimeOfDay('PT14H30M', 'en-AU')).toMatch(/2:30\s?pm/i);
    expect(formatIsoTimeOfDay('bad')).toBe('');
  });
});

describe('multi-line lists and addresses', () => {
  it('keeps one trimmed item per non-empty line', () => {
    expect(parseLines(' a \n\n b\r\n  \nc')).toEqual(['a', 'b', 'c']);
    expect(parseLines('')).toEqual([]);
  });
  it('drops commas from addresses', () => {
    expect(parseAddressLines('1 Main St,\n\n Sydney, NSW ')).toEqual(['1 Main St', 'Sydney NSW']);
  });
});

describe('public holiday dates', () => {
  it.each([
    ['2026-12-25', '2026-12-25'],
    ['26-1-26', '2026-01-26'],
    [' 2027-04-05 ', '2027-04-05'],
    ['2026-02-30', undefined],
    ['2026-13-01', undefined],
    ['25/12/2026', undefined],
    ['christmas', undefined],
    ['123-01-01', undefined],
  ])('%s -> %s', (v, out) => expect(parseHolidayDate(v)).toBe(out));
  it('drops invalid lines, removes duplicates and sorts', () => {
    expect(parseHolidayLines('2026-12-25\nnope\n26-01-01\n2026-12-25\n\n2025-02-29')).toEqual([
      '2026-01-01',
      '2026-12-25',
    ]);
  });
});

describe('link detection', () => {
  it('finds https URLs and mail addresses, not http', () => {
    expect(
      detectLinks('See https://x.example/a?b=1, mail me@x.example or mailto:y@x.example. http://no.example'),
    ).toEqual([
      { text: 'See ' },
      { text: 'https://x.example/a?b=1', href: 'https://x.example/a?b=1' },
      { text: ', mail ' },
      { text: 'me@x.example', href: 'mailto:me@x.example' },
      { text: ' or ' },
      { text: 'mailto:y@x.example', href: 'mailto:y@x.example' },
      { text: '. http://no.example' },
    ]);
  });
  it('leaves plain text alone', () => expect(detectLinks('no links')).toEqual([{ text: 'no links' }]));
});

describe('mentions', () => {
  it.each([
    ['hello @al', 'al'],
    ['@bob', 'bob'],
    ['hello @a', undefined],
    ['hello @', undefined],
    ['mail a@bc', undefined],
    ['@al and more', undefined],
  ])('%j -> %j', (text, out) => expect(mentionQueryAt(text)).toBe(out));
  it('reads at the caret', () => expect(mentionQueryAt('@al and more', 3)).toBe('al'));
});
