// The browser's own zone must not change what the app shows: this file runs as a browser in New
// York would (set before any date is read).
process.env.TZ = 'America/New_York';

import { describe, expect, it } from 'vitest';
import { formatDueDate } from '../src/shell/tasks/TasksOverlay';
import {
  browserIsElsewhere,
  businessZoneNames,
  formatDate,
  formatDateTime,
  formatTime,
} from '../src/ui/dates';

describe('dates in a browser outside the organisation zone', () => {
  it('runs in New York', () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('America/New_York');
    expect(browserIsElsewhere()).toBe(true);
  });

  it('shows a task due 30/11/2026 14:30 Sydney time at 2:30 pm, naming the zone', () => {
    // The server stores 14:30 in Sydney as 03:30 UTC (22:30 the day before in New York).
    expect(formatDateTime('2026-11-30T03:30:00.000Z')).toBe('30 Nov 2026, 2:30 pm AEDT');
    expect(formatTime('2026-11-30T03:30:00.000Z')).toBe('2:30 pm');
    expect(formatDueDate('2026-11-30T03:30:00.000Z', 'en-au')).toBe('30 Nov 2026');
  });

  it('files a request submitted at 11:24 pm Sydney time under that day', () => {
    expect(formatDate('2026-11-18T12:24:00.000Z')).toBe('18 Nov 2026');
    expect(formatDateTime('2026-11-18T12:24:00.000Z')).toBe('18 Nov 2026, 11:24 pm AEDT');
  });

  it('shows calendar dates (dates of birth, report weeks) as they are, in one format', () => {
    expect(formatDate('1980-02-29')).toBe('29 Feb 1980');
    expect(formatDate(null)).toBe('—');
    expect(formatDateTime(undefined)).toBe('—');
  });

  it('names the zone for the hints of date and time inputs', () => {
    expect(businessZoneNames(new Date('2026-11-30T03:30:00Z'))).toEqual({ zone: 'Sydney', abbr: 'AEDT' });
    expect(businessZoneNames(new Date('2026-06-30T03:30:00Z'))).toEqual({ zone: 'Sydney', abbr: 'AEST' });
  });
});
