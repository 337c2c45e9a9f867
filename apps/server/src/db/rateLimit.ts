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
  return (await takeRateOrWait(db, bucket, key, limit, windowSeconds)) === undefined;
}

/**
 * As takeRate, but a refusal answers how many seconds remain until the limit frees a place: the
 * moment the oldest of the last `limit` events leaves the window.
 */
export async function takeRateOrWait(
  db: DbOrTrx,
  bucket: string,
  key: string,
  limit: number,
  windowSeconds: number,
): Promise<number | undefined> {
  const now = Date.now();
  const row = await db
    .selectFrom('rate_events')
    .select('at')
    .where('bucket', '=', bucket)
    .where('key', '=', key)
    .where('at', '>', new Date(now - windowSeconds * 1000))
    .orderBy('at', 'desc')
    .offset(limit - 1)
    .limit(1)
    .executeTakeFirst();
  if (row) return Math.max(1, Math.ceil((new Date(row.at).getTime() + windowSeconds * 1000 - now) / 1000));
  await db.insertInto('rate_events').values({ bucket, key }).execute();
  return undefined;
}

export async function purgeRateEvents(db: DbOrTrx, olderThanSeconds: number): Promise<void> {
  await db
    .deleteFrom('rate_events')
    .where('at', '<', new Date(Date.now() - olderThanSeconds * 1000))
    .execute();
}

/** How many events of the key the window holds, counting nothing (a limit on failures only). */
export async function countRate(
  db: DbOrTrx,
  bucket: string,
  key: string,
  windowSeconds: number,
): Promise<number> {
  const since = new Date(Date.now() - windowSeconds * 1000);
  const row = await db
    .selectFrom('rate_events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('bucket', '=', bucket)
    .where('key', '=', key)
    .where('at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
