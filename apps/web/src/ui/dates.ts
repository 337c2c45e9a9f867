import {
  BUSINESS_TIME_ZONE,
  formatDate as formatBusinessDate,
  formatDateTime as formatBusinessDateTime,
  timeZoneShortName,
} from '@dossier/core';
import { useTranslation } from 'react-i18next';

// The time-zone rule in the browser (docs/ARCHITECTURE.md, "Time zones"): every date and time is
// shown in the organisation's zone, whatever zone the browser is in, in one format. A reader whose
// browser is elsewhere also sees the zone's name after each time, so "2:30 pm" is never misread.

function browserZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** True when the browser's clock is not the organisation's (at this moment). */
export function browserIsElsewhere(now = new Date()): boolean {
  const zone = browserZone();
  if (!zone || zone === BUSINESS_TIME_ZONE) return false;
  const clock = (timeZone: string) =>
    new Intl.DateTimeFormat('en-AU', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(now);
  return clock(zone) !== clock(BUSINESS_TIME_ZONE);
}

/** "30 Nov 2026, 2:30 pm" in the organisation's zone ("… AEDT" for a browser elsewhere); "—" for none. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return formatBusinessDateTime(value, { nameZone: browserIsElsewhere() });
}

/** "30 Nov 2026": a calendar date as it is, an instant as its day in the organisation's zone. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return formatBusinessDate(value);
}

/** A time of day alone ("2:30 pm"), in the organisation's zone. */
export function formatTime(value: string | Date): string {
  return new Intl.DateTimeFormat('en-AU', { timeStyle: 'short', timeZone: BUSINESS_TIME_ZONE }).format(
    new Date(value),
  );
}

/** The organisation's zone for the hints of date and time inputs: { zone: "Sydney", abbr: "AEDT" }. */
export function businessZoneNames(now = new Date()): { zone: string; abbr: string } {
  const city = BUSINESS_TIME_ZONE.split('/').at(-1) ?? BUSINESS_TIME_ZONE;
  return { zone: city.replaceAll('_', ' '), abbr: timeZoneShortName(now) };
}

/** The hint under a date filter ("Days in Sydney time (AEDT)") or a time input ("Sydney time (AEDT)"). */
export function useBusinessZoneHint(kind: 'days' | 'time'): string {
  const { t } = useTranslation();
  return t(kind === 'days' ? 'dates.daysHint' : 'dates.zoneHint', businessZoneNames());
}
