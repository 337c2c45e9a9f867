import { BUSINESS_TIME_ZONE } from '@dossier/core';
import { type Kysely, type RawBuilder, sql } from 'kysely';

// Counts kept by statement triggers with transition tables (task_completion_days, request_days,
// request_result_days, user_open_tasks): each event runs one upsert of the rows it added or took
// away, in the transaction of the change. The migrations that keep such counts build them here.

/**
 * A timestamp column's local date, as the kept counts group by it: the business's (Australia/Sydney),
 * written out since a trigger's SQL cannot take a parameter.
 */
export const localDay = (column: string) => sql.raw(`(${column} at time zone '${BUSINESS_TIME_ZONE}')::date`);

export type CountEvent = 'insert' | 'update' | 'delete';

const REFERENCING: Record<CountEvent, string> = {
  insert: 'referencing new table as new_rows',
  update: 'referencing old table as old_rows new table as new_rows',
  delete: 'referencing old table as old_rows',
};

/** `<prefix>_on_<event>()`: a trigger function that runs one statement (an AFTER trigger answers null). */
export async function createCountFunction(
  db: Kysely<unknown>,
  name: string,
  body: RawBuilder<unknown>,
): Promise<void> {
  await sql`${sql.raw(`create function ${name}() returns trigger language plpgsql as $fn$
      begin
        ${body.compile(db).sql};
        return null;
      end $fn$`)}`.execute(db);
}

/** The function of each event and its AFTER … FOR EACH STATEMENT trigger on `table`. */
export async function createCountTriggers(
  db: Kysely<unknown>,
  prefix: string,
  table: string,
  bodies: Partial<Record<CountEvent, RawBuilder<unknown>>>,
): Promise<void> {
  for (const [event, body] of Object.entries(bodies) as [CountEvent, RawBuilder<unknown>][]) {
    await createCountFunction(db, `${prefix}_on_${event}`, body);
    await sql
      .raw(
        `create trigger ${prefix}_${event} after ${event} on ${table} ${REFERENCING[event]} for each statement execute function ${prefix}_on_${event}()`,
      )
      .execute(db);
  }
}

/** Takes back what createCountTriggers made (of every event, whichever were made). */
export async function dropCountTriggers(db: Kysely<unknown>, prefix: string, table: string): Promise<void> {
  for (const event of ['insert', 'update', 'delete']) {
    await sql.raw(`drop trigger if exists ${prefix}_${event} on ${table}`).execute(db);
    await sql.raw(`drop function if exists ${prefix}_on_${event}()`).execute(db);
  }
}
