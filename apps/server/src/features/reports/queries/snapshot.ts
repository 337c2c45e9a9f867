import { sql } from 'kysely';
import type { Db, Trx } from '../../../db/database.js';

/** Runs a report's summary in a read-only snapshot with room to group a year of rows in memory. */
export function inReportSnapshot<T>(db: Db, run: (trx: Trx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set transaction read only`.execute(trx);
    await sql`set local work_mem = '64MB'`.execute(trx);
    return run(trx);
  });
}
