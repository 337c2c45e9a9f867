import { describe, expect, it } from 'vitest';
import {
  atTimeOfDay,
  decimalPrecisionOf,
  detectLinks,
  dueFromSettings,
  formatIsoTimeOfDay,
  hasControlCharacter,
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
  urlProblem,
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
  // Smart form answers: the question's precision, 0 to 5.
  it.each([
    ['3', 0, 3],
    ['3.5', 0, undefined],
    ['3.', 1, undefined],
    ['3.5', 1, 3.5],
    ['3.55', 1, undefined],
    ['1.23456', 5, 1.23456],
    ['1.234567', 5, undefined],
    ['1.234', 3, 1.234],
    ['-1.2', 3, undefined],
    ['1,5', 3, undefined],
    // An out-of-range precision is the default 2.
    ['1.25', 9, 1.25],
    ['1.255', 9, undefined],
  ] as const)('decimal %j with precision %j -> %j', (text, precision, out) =>
    expect(parseDecimalInput(text, { precision })).toBe(out),
  );
  it('clamps a valid answer of any precision', () => {
    expect(parseDecimalInput('99.999', { precision: 3, max: 50 })).toBe(50);
    expect(parseDecimalInput('0.001', { precision: 3, min: 0.5 })).toBe(0.5);
  });
  it.each([
    [undefined, 2],
    [0, 0],
    [5, 5],
    [6, 2],
    [-1, 2],
    [1.5, 2],
  ])('precision %j is %j', (v, out) => expect(decimalPrecisionOf(v)).toBe(out));
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
  it.each([
    ['https:example.com', { httpsOnly: true }, 'noSlashes'],
    ['https:/example.com', {}, 'noSlashes'],
    ['example.com', {}, 'noProtocol'],
    ['example.com:8080/x', {}, 'noProtocol'],
    ['localhost:3000', {}, 'noProtocol'],
    ['http://example.com', { httpsOnly: true }, 'httpsOnly'],
    ['ftp://example.com', {}, 'protocol'],
    ['javascript:alert(1)', {}, 'protocol'],
    ['https://', {}, 'invalid'],
    ['https://example.com', { httpsOnly: true }, undefined],
    ['', {}, undefined],
  ] as const)('says why %s %j is no URL: %s', (input, opts, out) =>
    expect(urlProblem(input, opts)).toBe(out),
  );
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
    ['9:60', undefined],
    ['2:30 pm', 'PT14H30M'],
    ['12:15 am', 'PT0H15M'],
    ['12:00 PM', 'PT12H0M'],
    ['13:00 pm', undefined],
    ['0:30 am', undefined],
    ['', undefined],
    ['noon', undefined],
  ])('typed %s is %s', (v, out) => expect(timeInputToIso(v)).toBe(out));
  it('reads back what it shows', () => {
    for (const iso of ['PT9H30M', 'PT14H5M', 'PT0H0M', 'PT23H59M'])
      expect(timeInputToIso(formatIsoTimeOfDay(iso, 'en-AU'))).toBe(iso);
  });
  it('puts a due instant at the time of day of its local date', () => {
    // 2026-11-26 10:00 in Sydney (UTC+11 in summer) at 17:00 local.
    const due = atTimeOfDay(new Date('2026-11-25T23:00:00Z'), 'PT17H0M', 'Australia/Sydney');
    expect(due.toISOString()).toBe('2026-11-26T06:00:00.000Z');
    // Winter (UTC+10).
    expect(atTimeOfDay(new Date('2026-06-01T02:00:00Z'), 'PT9H30M').toISOString()).toBe(
      '2026-05-31T23:30:00.000Z',
    );
    expect(atTimeOfDay(new Date('2026-06-01T02:00:00Z'), 'PT9H30M', 'UTC').toISOString()).toBe(
      '2026-06-01T09:30:00.000Z',
    );
    const same = new Date('2026-06-01T02:00:00Z');
    expect(atTimeOfDay(same, 'bad')).toBe(same);
  });
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

describe('due time of day of a task type', () => {
  // Thursday 2026-11-26 10:00 in Sydney.
  const triggered = new Date('2026-11-25T23:00:00Z');
  it('keeps the trigger clock time without a time of day', () => {
    expect(dueFromSettings(triggered, { defaultDueDateInBusinessDays: 1 }, []).toISOString()).toBe(
      '2026-11-26T23:00:00.000Z',
    );
  });
  it('falls due at the time of day of the due business day', () => {
    const due = dueFromSettings(triggered, { defaultDueDateInBusinessDays: 1, dueTimeOfDay: 'PT17H0M' }, []);
    // Friday 27 November 17:00 in Sydney.
    expect(due.toISOString()).toBe('2026-11-27T06:00:00.000Z');
  });
});

describe('hasControlCharacter', () => {
  it('lets text of several lines hold tab, CR and LF, and a single line none of them', () => {
    expect(hasControlCharacter('a\tb\r\nc')).toBe(false);
    expect(hasControlCharacter('a\u0000b')).toBe(true);
    expect(hasControlCharacter('a\u001fb')).toBe(true);
    for (const c of ['\r', '\n', '\t', '\u0000'])
      expect(hasControlCharacter(`Subject${c}Bcc: x`, { singleLine: true })).toBe(true);
    expect(hasControlCharacter('Records \u2028 \u00e9', { singleLine: true })).toBe(false);
  });
});
