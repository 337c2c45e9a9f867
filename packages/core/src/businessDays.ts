// Business days: Monday to Friday, less the public holidays of the effective configuration.
// Dates are calendar dates (YYYY-MM-DD) in the organisation's time zone; times keep their clock
// time when moved by business days.

import { dateTimeFormat } from './intlFormats.js';
import { BUSINESS_TIME_ZONE } from './timeZone.js';

export interface BusinessCalendar {
  isBusinessDay(date: string): boolean;
  /** The date `days` business days after `date` (before, when negative). */
  addBusinessDays(date: string, days: number): string;
  /** Business days after `from` up to and including `to` (0 when `to` is not after `from`). */
  businessDaysBetween(from: string, to: string): number;
}

function toUtc(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

function toDateString(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  const d = toUtc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return toDateString(d);
}

export function createBusinessCalendar(holidays: readonly string[]): BusinessCalendar {
  const holidaySet = new Set(holidays);
  const isBusinessDay = (date: string) => {
    const weekday = toUtc(date).getUTCDay();
    return weekday !== 0 && weekday !== 6 && !holidaySet.has(date);
  };
  return {
    isBusinessDay,
    addBusinessDays(date, days) {
      const step = days < 0 ? -1 : 1;
      let remaining = Math.abs(Math.trunc(days));
      let current = date;
      while (remaining > 0) {
        current = addDays(current, step);
        if (isBusinessDay(current)) remaining--;
      }
      return current;
    },
    businessDaysBetween(from, to) {
      let count = 0;
      for (let d = addDays(from, 1); d <= to; d = addDays(d, 1)) if (isBusinessDay(d)) count++;
      return count;
    },
  };
}

/** The calendar date of an instant in a time zone (YYYY-MM-DD). */
export function dateInTimeZone(instant: Date, timeZone = BUSINESS_TIME_ZONE): string {
  // en-CA formats as YYYY-MM-DD.
  return dateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}

/**
 * A due time `days` business days after `triggeredAt`, at the same clock time (UTC arithmetic on
 * the local date keeps it simple: the offset of the time zone is applied to the date only).
 */
export function dueAfterBusinessDays(
  triggeredAt: Date,
  days: number,
  holidays: readonly string[],
  timeZone = BUSINESS_TIME_ZONE,
): Date {
  const calendar = createBusinessCalendar(holidays);
  const localDate = dateInTimeZone(triggeredAt, timeZone);
  const dueDate = calendar.addBusinessDays(localDate, days);
  const shift = toUtc(dueDate).getTime() - toUtc(localDate).getTime();
  return new Date(triggeredAt.getTime() + shift);
}
