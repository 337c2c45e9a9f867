import { createBusinessCalendar } from '@dossier/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { invalidateConfigurationCache } from '../src/features/configuration/cache.js';
import { calendarCte, loadHolidaySets } from '../src/features/reports/queries/calendar.js';
import { createTestContext, type TestContext } from './helpers.js';

// The reports' business-day calendar is kept in business_calendar per set of holidays: numbered
// once, then read. Its business days between two dates equal core's rule, and a change of the
// holidays gives a calendar of its own.

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
  await seedConfiguration(t.db, { demo: true });
});
afterAll(async () => t.close());

async function daysBetween(from: string, to: string): Promise<number> {
  const h = await loadHolidaySets(t.db, '2026-11-26');
  const { rows } = await sql<{ n: number }>`
    with cal as materialized (${calendarCte(h)})
    select c2.n - c1.n as n from cal c1 join cal c2 on c2.set_id = c1.set_id
    where c1.set_id = 1 and c1.d = ${from}::date and c2.d = ${to}::date`.execute(t.db);
  return Number(rows[0]?.n);
}

describe('the kept business calendar', () => {
  it('counts business days as core does, numbering each holiday set once', async () => {
    const holidays = (await loadHolidaySets(t.db, '2026-11-26')).sets[0] ?? [];
    expect(holidays).toContain('2026-06-08');
    for (const [from, to] of [
      ['2026-06-05', '2026-06-12'],
      ['2025-12-19', '2026-01-09'],
      ['2001-03-01', '2026-11-26'],
    ] as const)
      expect(await daysBetween(from, to)).toBe(
        createBusinessCalendar(holidays).businessDaysBetween(from, to),
      );
    const rows = await t.db
      .selectFrom('business_calendar')
      .select(sql<string>`count(*)`.as('n'))
      .executeTakeFirst();
    await loadHolidaySets(t.db, '2026-11-26');
    const again = await t.db
      .selectFrom('business_calendar')
      .select(sql<string>`count(*)`.as('n'))
      .executeTakeFirst();
    expect(again?.n).toBe(rows?.n);
  });

  it('gives changed holidays a calendar of their own', async () => {
    const before = await loadHolidaySets(t.db, '2026-11-26');
    const entry = await t.db
      .selectFrom('configuration_entries')
      .select(['id', 'data'])
      .where('type', '=', 'publicHolidaysEntry')
      .executeTakeFirstOrThrow();
    const data = entry.data as { dates: string[] };
    await t.db
      .updateTable('configuration_entries')
      .set({ data: JSON.stringify({ ...data, dates: [...data.dates, '2026-06-10'] }) })
      .where('id', '=', entry.id)
      .execute();
    // Written past the configuration service: drop the instance's cached configuration as a save does.
    invalidateConfigurationCache(t.db);
    const after = await loadHolidaySets(t.db, '2026-11-26');
    expect(after.keys[0]).not.toBe(before.keys[0]);
    const days = createBusinessCalendar(after.sets[0] ?? []).businessDaysBetween('2026-06-05', '2026-06-12');
    expect(await daysBetween('2026-06-05', '2026-06-12')).toBe(days);
    expect(days).toBe(
      createBusinessCalendar(before.sets[0] ?? []).businessDaysBetween('2026-06-05', '2026-06-12') - 1,
    );
  });
});
