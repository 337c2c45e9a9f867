import { describe, expect, it } from 'vitest';
import { createBusinessCalendar, dueAfterBusinessDays } from '../src/index.js';

const holidays = ['2026-12-25', '2026-12-28', '2027-01-01'];
const cal = createBusinessCalendar(holidays);

describe('business days', () => {
  it.each([
    ['2026-11-23', true], // Monday
    ['2026-11-27', true], // Friday
    ['2026-11-28', false], // Saturday
    ['2026-11-29', false], // Sunday
    ['2026-12-25', false], // holiday on a Friday
  ])('%s is a business day: %s', (d, out) => expect(cal.isBusinessDay(d)).toBe(out));

  it.each([
    ['2026-11-23', 1, '2026-11-24'],
    ['2026-11-27', 1, '2026-11-30'], // over the weekend
    ['2026-11-28', 1, '2026-11-30'], // from a Saturday
    ['2026-12-24', 1, '2026-12-29'], // over Christmas and the Boxing Day substitute
    ['2026-12-24', 3, '2026-12-31'],
    ['2026-12-31', 1, '2027-01-04'], // New Year's Day and a weekend
    ['2026-11-23', 0, '2026-11-23'],
    ['2026-11-30', -1, '2026-11-27'],
    ['2026-11-23', 10, '2026-12-07'],
  ] as const)('%s + %d business days = %s', (from, days, out) =>
    expect(cal.addBusinessDays(from, days)).toBe(out),
  );

  it.each([
    ['2026-11-23', '2026-11-23', 0],
    ['2026-11-23', '2026-11-30', 5],
    ['2026-12-21', '2026-12-31', 6],
    ['2026-11-30', '2026-11-23', 0],
  ] as const)('business days from %s to %s: %d', (a, b, out) =>
    expect(cal.businessDaysBetween(a, b)).toBe(out),
  );

  it('keeps the clock time of a due time in the time zone', () => {
    // Thursday 24 Dec 2026, 10:00 in Sydney (UTC+11) plus 1 business day -> Tuesday 29 Dec, 10:00.
    const due = dueAfterBusinessDays(new Date('2026-12-23T23:00:00Z'), 1, holidays);
    expect(due.toISOString()).toBe('2026-12-28T23:00:00.000Z');
  });
});
