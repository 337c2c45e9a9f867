import { describe, expect, it } from 'vitest';
import {
  dayEnd,
  dayStart,
  formatDate,
  formatDateTime,
  formatExportDateTime,
  instantInTimeZone,
  timeZoneShortName,
} from '../src/timeZone.js';

// Every case is in the organisation's zone (Australia/Sydney: AEDT +11 in summer, AEST +10 in
// winter) whatever zone the test process runs in.
describe('the organisation time-zone rule', () => {
  it('reads an entered date and time in the organisation zone', () => {
    expect(instantInTimeZone('2026-11-30', '14:30').toISOString()).toBe('2026-11-30T03:30:00.000Z');
    expect(instantInTimeZone('2026-06-15', '09:00').toISOString()).toBe('2026-06-14T23:00:00.000Z');
    expect(instantInTimeZone('2026-11-30', '14:30', 'America/New_York').toISOString()).toBe(
      '2026-11-30T19:30:00.000Z',
    );
  });

  it('handles the daylight-saving changes', () => {
    // 4 Oct 2026, 2:00 → 3:00: 2:30 does not exist and moves forward by the gap.
    expect(instantInTimeZone('2026-10-04', '02:30').toISOString()).toBe('2026-10-03T16:30:00.000Z');
    // 5 Apr 2026, 3:00 → 2:00: 2:30 happens twice; the result is one of the two.
    expect(['2026-04-04T15:30:00.000Z', '2026-04-04T16:30:00.000Z']).toContain(
      instantInTimeZone('2026-04-05', '02:30').toISOString(),
    );
  });

  it('bounds a calendar day in the organisation zone, for date filters', () => {
    expect(dayStart('2026-11-18').toISOString()).toBe('2026-11-17T13:00:00.000Z');
    expect(dayEnd('2026-11-18').toISOString()).toBe('2026-11-18T13:00:00.000Z');
    // A request submitted at 11:24 pm on 18 Nov in Sydney falls on the 18th.
    const late = instantInTimeZone('2026-11-18', '23:24');
    expect(late >= dayStart('2026-11-18') && late < dayEnd('2026-11-18')).toBe(true);
    // The day the clocks change is 23 hours long.
    expect(dayEnd('2026-10-04').getTime() - dayStart('2026-10-04').getTime()).toBe(23 * 3600_000);
  });

  it('shows instants in the organisation zone, one format for dates and one for date-times', () => {
    const due = '2026-11-30T03:30:00.000Z';
    expect(formatDateTime(due)).toBe('30 Nov 2026, 2:30 pm');
    expect(formatDateTime(due, { nameZone: true })).toBe('30 Nov 2026, 2:30 pm AEDT');
    expect(formatDate(due)).toBe('30 Nov 2026');
    // A payment at 9 am on 25 Nov in Sydney is 24 Nov in UTC; it is the 25th.
    expect(formatDate(new Date('2026-11-24T22:00:00Z'))).toBe('25 Nov 2026');
    expect(formatDateTime(due, { timeZone: 'UTC' })).toBe('30 Nov 2026, 3:30 am');
  });

  it('shows a calendar date as it is, in any zone', () => {
    expect(formatDate('2026-11-30')).toBe('30 Nov 2026');
    expect(formatDate('2026-11-30', 'America/New_York')).toBe('30 Nov 2026');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('not a date');
  });

  it('names the zone and writes export date-times in it', () => {
    expect(timeZoneShortName(new Date('2026-11-30T03:30:00Z'))).toBe('AEDT');
    expect(timeZoneShortName(new Date('2026-06-30T03:30:00Z'))).toBe('AEST');
    expect(formatExportDateTime('2026-11-24T22:00:00Z')).toBe('2026-11-25 09:00');
    expect(formatExportDateTime('2026-11-30T13:00:00Z')).toBe('2026-12-01 00:00');
  });
});
