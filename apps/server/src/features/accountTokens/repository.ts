import type { DbOrTrx } from '../../db/database.js';

export async function insertToken(
  db: DbOrTrx,
  token: { id: string; userId: string; purpose: string; expiresAt: Date; ip: string | null },
) {
  await db
    .insertInto('account_tokens')
    .values({
      id: token.id,
      user_id: token.userId,
      purpose: token.purpose,
      expires_at: token.expiresAt,
      ip: token.ip,
    })
    .execute();
}

/** Ends every unused token of this purpose of the user: only the newest link may work. */
export async function retireTokens(db: DbOrTrx, userId: string, purpose: string): Promise<void> {
  await db
    .updateTable('account_tokens')
    .set({ used_at: new Date() })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** Marks an unused, unexpired token used; answers its user. */
export async function useToken(db: DbOrTrx, id: string, purpose: string): Promise<string | undefined> {
  const row = await db
    .updateTable('account_tokens')
    .set({ used_at: new Date() })
    .where('id', '=', id)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}
