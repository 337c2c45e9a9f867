import type { DbOrTrx } from '../../db/database.js';

export async function insertLogin(
  db: DbOrTrx,
  login: { state: string; codeVerifier: string; nonce: string; returnUrl: string },
) {
  await db
    .insertInto('sso_logins')
    .values({
      state: login.state,
      code_verifier: login.codeVerifier,
      nonce: login.nonce,
      return_url: login.returnUrl,
    })
    .execute();
}

/** Takes a login in flight out of the table: each state can be used once, within ten minutes. */
export function takeLogin(db: DbOrTrx, state: string) {
  return db
    .deleteFrom('sso_logins')
    .where('state', '=', state)
    .where('created_at', '>', new Date(Date.now() - 10 * 60_000))
    .returning(['code_verifier', 'nonce', 'return_url'])
    .executeTakeFirst();
}

export function findUserByExternalId(db: DbOrTrx, externalId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'disabled'])
    .where('external_user_id', '=', externalId)
    .executeTakeFirst();
}

export async function purgeOldLogins(db: DbOrTrx): Promise<void> {
  await db
    .deleteFrom('sso_logins')
    .where('created_at', '<', new Date(Date.now() - 3_600_000))
    .execute();
}
