import type { DbOrTrx } from './database.js';

/**
 * Counts an event against a limit over a window; answers false (and counts nothing) when the limit
 * is already reached. Rows live in PostgreSQL so every instance sees the same counts.
 */
export async function takeRate(
  db: DbOrTrx,
  bucket: string,
  key: string,
  limit: number,
  windowSeconds: number,
): Promise<boolean> {
  const since = new Date(Date.now() - windowSeconds * 1000);
  const row = await db
    .selectFrom('rate_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('bucket', '=', bucket)
    .where('key', '=', key)
    .where('at', '>', since)
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= limit) return false;
  await db.insertInto('rate_events').values({ bucket, key }).execute();
  return true;
}

export async function purgeRateEvents(db: DbOrTrx, olderThanSeconds: number): Promise<void> {
  await db
    .deleteFrom('rate_events')
    .where('at', '<', new Date(Date.now() - olderThanSeconds * 1000))
    .execute();
}
