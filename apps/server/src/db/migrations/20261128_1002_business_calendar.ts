import { type Kysely, sql } from 'kysely';

// The reports' business-day calendar, kept instead of numbered again by every report (see
// features/reports/calendar.ts): per set of public holidays (its key), each day since 2000-01-01 and
// the business days up to and including it. Rows are only ever added; a changed holiday set gets a
// new key, and the few thousand rows of an old one stay (about 11,000 per set).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table business_calendar (
      holidays_key text not null,
      d date not null,
      n int not null,
      primary key (holidays_key, d)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists business_calendar`.execute(db);
}
