import { createHash } from 'node:crypto';
import { BUSINESS_TIME_ZONE } from '@dossier/core';
import { type RawBuilder, sql } from 'kysely';
import type { DbOrTrx } from '../../../db/database.js';
import { likeStartsWith } from '../../../db/search.js';
import { getPublicHolidays, listScopeEntries } from '../../configuration/index.js';

// Business days in SQL, by the rules of packages/core businessDays.ts and requests/kpi.ts: Monday
// to Friday less the public holidays of the effective configuration of the row's scope, counted
// after the start date up to and including the end date, dates local to the organisation's time
// zone. A CTE `cal (set_id, d, n)` numbers every day: n = business days up to and including d, so
// the business days in (a, b] are n(b) − n(a), two hash-join lookups per row instead of a loop.
// Scopes whose effective holidays differ get their own set; usually there is one.
// Numbering the 30 years of days took about a third of a report's time (20-70 ms per report), so
// each set's numbered days are kept in business_calendar under a key of its holidays: written on the
// first report after the holidays change (and one day more each day), read by every report after.

export const TIME_ZONE = BUSINESS_TIME_ZONE;
/** The calendar's first day; no request or task is older. */
const CALENDAR_FROM = '2000-01-01';

export interface HolidaySets {
  /** Holidays (YYYY-MM-DD) of each set; set ids are 1-based positions. */
  sets: string[][];
  /** The business_calendar key of each set, by the same positions. */
  keys: string[];
  /** Scope prefixes with a set, longest first; the root set (1) applies to everything else. */
  prefixes: { prefix: string; set: number }[];
  calendarTo: string;
}

export async function loadHolidaySets(db: DbOrTrx, today: string): Promise<HolidaySets> {
  const root = await getPublicHolidays(db, '/');
  const sets = [root];
  const key = (h: string[]) => h.join(',');
  const prefixes: { prefix: string; set: number }[] = [];
  for (const entry of await listScopeEntries(db)) {
    if (entry.scopePath === '/') continue;
    const holidays = await getPublicHolidays(db, entry.scopePath);
    let index = sets.findIndex((s) => key(s) === key(holidays));
    if (index < 0) index = sets.push(holidays) - 1;
    prefixes.push({ prefix: entry.scopePath, set: index + 1 });
  }
  prefixes.sort((a, b) => b.prefix.length - a.prefix.length);
  const to = new Date(`${today}T00:00:00Z`);
  to.setUTCFullYear(to.getUTCFullYear() + 3);
  const calendarTo = to.toISOString().slice(0, 10);
  const keys = sets.map((holidays) =>
    createHash('sha256').update(holidays.join(',')).digest('hex').slice(0, 32),
  );
  await keepCalendars(db, sets, keys, calendarTo);
  return { sets, keys, prefixes: sets.length === 1 ? [] : prefixes, calendarTo };
}

/** Numbers the days of each set up to `calendarTo` in business_calendar, where not done yet. */
async function keepCalendars(db: DbOrTrx, sets: string[][], keys: string[], calendarTo: string) {
  const done = await db
    .selectFrom('business_calendar')
    .select('holidays_key')
    .where('holidays_key', 'in', keys)
    .where('d', '=', sql<Date>`${calendarTo}::date`)
    .execute();
  const have = new Set(done.map((r) => r.holidays_key));
  for (const [i, key] of keys.entries()) {
    if (have.has(key)) continue;
    // Concurrent reports may number the same days: the rows are equal, the second insert skips them.
    await sql`
      insert into business_calendar (holidays_key, d, n)
      select ${key}, g.d,
        (sum(case when extract(isodow from g.d) < 6 and not (g.d = any (${`{${(sets[i] ?? []).join(',')}}`}::date[]))
          then 1 else 0 end) over (order by g.d))::int
      from (select ${CALENDAR_FROM}::date + i as d
            from generate_series(0, ${calendarTo}::date - ${CALENDAR_FROM}::date) i) g
      on conflict (holidays_key, d) do nothing`.execute(db);
  }
}

/** The holiday set of a row, from its scope column. */
export function holidaySetOf(h: HolidaySets, scope: RawBuilder<unknown>): RawBuilder<number> {
  if (h.prefixes.length === 0) return sql<number>`1`;
  const whens = h.prefixes.map((p) => sql`when ${scope} like ${likeStartsWith(p.prefix)} then ${p.set}::int`);
  return sql<number>`(case ${sql.join(whens, sql` `)} else 1 end)`;
}

/** The body of the `cal` CTE: each set's numbered days, kept in business_calendar. */
export function calendarCte(h: HolidaySets): RawBuilder<unknown> {
  const sets = h.keys.map((key, i) => sql`(${i + 1}::int, ${key}::text)`);
  return sql`
    select s.set_id, c.d, c.n
    from (values ${sql.join(sets)}) s (set_id, holidays_key)
      join business_calendar c on c.holidays_key = s.holidays_key`;
}

/**
 * A timestamp's local date. Every date looked up is between CALENDAR_FROM and today (triggered,
 * completed, submitted, closed, paid: all in the past), so it is always in the calendar.
 */
export function localDate(column: RawBuilder<unknown>, _h: HolidaySets): RawBuilder<string> {
  return sql<string>`(${column} at time zone ${TIME_ZONE})::date`;
}
