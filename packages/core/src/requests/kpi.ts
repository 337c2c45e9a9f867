import { createBusinessCalendar, dateInTimeZone } from '../businessDays.js';
import { BUSINESS_TIME_ZONE } from '../timeZone.js';
import type { RequestKpi } from './model.js';

// The KPI figures of the request page (docs/ARCHITECTURE.md "KPIs"). The clock runs from the submission date to
// the close date (or today), counted as calendar dates in the organisation's time zone: a request
// submitted and closed on the same day took 0 days. A day is "pended" when a pending task was open
// on it; pended days are business days only, and a day pended both ways is taken off once.

/** A task that pends the clock: open from `triggeredAt` until `completedAt` (or still open). */
export interface PendingTask {
  type: 'senderActionRequired' | 'actionDeferred';
  triggeredAt: Date;
  completedAt: Date | null;
}

export interface KpiInput {
  submittedAt: Date;
  closedAt: Date | null;
  now: Date;
  tasks: readonly PendingTask[];
  holidays: readonly string[];
  timeZone?: string;
}

function nextDate(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  const ms = Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`);
  return Math.max(0, Math.round(ms / 86_400_000));
}

/**
 * The business days on which a task was open, within the request's elapsed period. Like the
 * elapsed count, a day counts when it is after the start date, up to and including the end date.
 */
function pendedDays(
  task: PendingTask,
  period: { from: string; to: string },
  isBusinessDay: (d: string) => boolean,
  timeZone: string,
): string[] {
  const start = dateInTimeZone(task.triggeredAt, timeZone);
  const end = task.completedAt ? dateInTimeZone(task.completedAt, timeZone) : period.to;
  // Dates as YYYY-MM-DD strings order as text: the later start, the earlier end.
  const [, from = start] = [start, period.from].sort();
  const [to = end] = [end, period.to].sort();
  const days: string[] = [];
  for (let d = nextDate(from); d <= to; d = nextDate(d)) if (isBusinessDay(d)) days.push(d);
  return days;
}

export function computeRequestKpi(input: KpiInput): RequestKpi {
  const timeZone = input.timeZone ?? BUSINESS_TIME_ZONE;
  const calendar = createBusinessCalendar(input.holidays);
  const from = dateInTimeZone(input.submittedAt, timeZone);
  const to = dateInTimeZone(input.closedAt ?? input.now, timeZone);
  const period = { from, to };
  const external = new Set<string>();
  const internal = new Set<string>();
  for (const task of input.tasks) {
    const target = task.type === 'senderActionRequired' ? external : internal;
    for (const day of pendedDays(task, period, calendar.isBusinessDay, timeZone)) target.add(day);
  }
  const businessDaysElapsed = calendar.businessDaysBetween(from, to);
  const pended = new Set([...external, ...internal]).size;
  return {
    calendarDaysElapsed: daysBetween(from, to),
    businessDaysElapsed,
    daysPendedExternal: external.size,
    daysPendedInternal: internal.size,
    businessDaysElapsedLessPended: Math.max(0, businessDaysElapsed - pended),
  };
}
