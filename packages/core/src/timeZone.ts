// The one time-zone rule (docs/ARCHITECTURE.md, "Time zones"): business dates and date-times are
// shown and entered in the organisation's time zone, never the browser's or the server process's.
// Pages, documents, mails and exports all format through these functions.

import { dateTimeFormat } from './intlFormats.js';

/** The organisation's time zone: due dates, filters, reports, documents and pages all use it. */
export const BUSINESS_TIME_ZONE = 'Australia/Sydney';

/** The locale of every date shown: one format everywhere ("30 Nov 2026", "30 Nov 2026, 2:30 pm"). */
export const DATE_LOCALE = 'en-AU';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function toInstant(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** The wall clock of a time zone at an instant, each part two digits (the year four). */
function wallClock(instant: Date, timeZone: string): Record<string, string> {
  return Object.fromEntries(
    dateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
}

/** The offset of a time zone from UTC at an instant, in milliseconds. */
export function zoneOffset(instant: Date, timeZone: string): number {
  const parts = wallClock(instant, timeZone);
  const part = (type: string) => Number(parts[type]);
  const asUtc = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return asUtc - (instant.getTime() - instant.getMilliseconds());
}

/**
 * The instant of a calendar date and time of day (YYYY-MM-DD, HH:MM) in a time zone. A time skipped
 * by a daylight-saving change moves forward by the gap; a repeated one takes its first occurrence.
 */
export function instantInTimeZone(date: string, time: string, timeZone = BUSINESS_TIME_ZONE): Date {
  const guess = new Date(`${date}T${time}:00Z`);
  const first = new Date(guess.getTime() - zoneOffset(guess, timeZone));
  // Once more, in case the guess and the result fall on different sides of a daylight saving change.
  return new Date(guess.getTime() - zoneOffset(first, timeZone));
}

/** The first instant of a calendar day in a time zone; `dayEnd` is the first instant of the next. */
export function dayStart(date: string, timeZone = BUSINESS_TIME_ZONE): Date {
  return instantInTimeZone(date, '00:00', timeZone);
}

export function dayEnd(date: string, timeZone = BUSINESS_TIME_ZONE): Date {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return dayStart(next.toISOString().slice(0, 10), timeZone);
}

/**
 * A date for people: "30 Nov 2026". A calendar date (YYYY-MM-DD) is shown as it is; an instant is
 * shown as the date it has in the time zone.
 */
export function formatDate(
  value: Date | string | null | undefined,
  timeZone = BUSINESS_TIME_ZONE,
  locale = DATE_LOCALE,
): string {
  if (value === null || value === undefined || value === '') return '';
  const dateOnly = typeof value === 'string' && DATE_ONLY.test(value);
  const instant = dateOnly ? new Date(`${value}T00:00:00Z`) : toInstant(value);
  if (Number.isNaN(instant.getTime())) return String(value);
  return dateTimeFormat(locale, {
    dateStyle: 'medium',
    timeZone: dateOnly ? 'UTC' : timeZone,
  }).format(instant);
}

export interface DateTimeOptions {
  timeZone?: string;
  locale?: string;
  /** Append the zone's short name ("AEDT"), for readers who may be elsewhere. */
  nameZone?: boolean;
}

/** A date-time for people: "30 Nov 2026, 2:30 pm" in the time zone (with "AEDT" when asked). */
export function formatDateTime(
  value: Date | string | null | undefined,
  options: DateTimeOptions = {},
): string {
  if (value === null || value === undefined || value === '') return '';
  const instant = toInstant(value);
  if (Number.isNaN(instant.getTime())) return String(value);
  const timeZone = options.timeZone ?? BUSINESS_TIME_ZONE;
  const text = dateTimeFormat(options.locale ?? DATE_LOCALE, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(instant);
  return options.nameZone ? `${text} ${timeZoneShortName(instant, timeZone)}` : text;
}

/** The zone's short name at an instant ("AEDT", "AEST"); a GMT offset where there is none. */
export function timeZoneShortName(instant: Date, timeZone = BUSINESS_TIME_ZONE): string {
  const part = dateTimeFormat('en-AU', { timeZone, timeZoneName: 'short' })
    .formatToParts(instant)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}

/** A date-time for files read by programs and spreadsheets: "2026-11-30 14:30" in the time zone. */
export function formatExportDateTime(value: Date | string, timeZone = BUSINESS_TIME_ZONE): string {
  const instant = toInstant(value);
  const parts = wallClock(instant, timeZone);
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
