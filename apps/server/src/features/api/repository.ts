import type { DbOrTrx } from '../../db/database.js';

// SQL of the public API: token ids seen (replay refusal) and the service user of each key.

/**
 * Records a token id as used; answers false when it was used before (a replay). The row is kept
 * until the token expires, after which the token is refused for its exp anyway.
 */
export async function useTokenId(db: DbOrTrx, kid: string, jti: string, expiresAt: Date): Promise<boolean> {
  const row = await db
    .insertInto('api_token_ids')
    .values({ kid, jti, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['kid', 'jti']).doNothing())
    .returning('jti')
    .executeTakeFirst();
  return row !== undefined;
}

export async function purgeExpiredTokenIds(db: DbOrTrx, before: Date): Promise<void> {
  await db.deleteFrom('api_token_ids').where('expires_at', '<', before).execute();
}

/**
 * The key's service user: created on first use, renamed or moved when the key's entry changed. It is
 * disabled and has no password, so nobody can sign in as it; it exists so that what the key does is
 * recorded with an author, like anybody's.
 */
export async function upsertApiUser(
  db: DbOrTrx,
  user: { id: string; name: string; scope: string },
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      name: user.name,
      email: `${user.id.replace(/[^a-zA-Z0-9.-]/g, '-')}@api-key.invalid`,
      scope: user.scope,
      disabled: true,
      email_confirmed_at: new Date(),
    })
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({ name: user.name, scope: user.scope, updated_at: new Date() })
        .where((eb) => eb.or([eb('users.name', '<>', user.name), eb('users.scope', '<>', user.scope)])),
    )
    .execute();
}

export function findUserForVerification(db: DbOrTrx, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email', 'scope'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** When the oldest counted call of a key in the window was made (for Retry-After). */
export async function oldestRateEvent(
  db: DbOrTrx,
  bucket: string,
  key: string,
  since: Date,
): Promise<Date | undefined> {
  const row = await db
    .selectFrom('rate_events')
    .select((eb) => eb.fn.min('at').as('at'))
    .where('bucket', '=', bucket)
    .where('key', '=', key)
    .where('at', '>', since)
    .executeTakeFirst();
  return row?.at ? new Date(row.at) : undefined;
}
