import type { DbOrTrx } from '../../db/database.js';

const COLUMNS = ['id', 'type', 'target', 'text', 'created_at', 'created_by', 'acknowledged_at'] as const;

export function listRecent(db: DbOrTrx, userId: string, limit: number) {
  return db
    .selectFrom('notifications')
    .leftJoin('users as creator', 'creator.id', 'notifications.created_by')
    .select(COLUMNS.map((c) => `notifications.${c}` as const))
    .select('creator.name as created_by_name')
    .where('notifications.user_id', '=', userId)
    .orderBy('notifications.id', 'desc')
    .limit(limit)
    .execute();
}

/** Counts active notifications up to `cap`, so the count stays cheap however many pile up. */
export async function countActive(db: DbOrTrx, userId: string, cap: number): Promise<number> {
  const rows = await db
    .selectFrom('notifications')
    .select('id')
    .where('user_id', '=', userId)
    .where('acknowledged_at', 'is', null)
    .limit(cap)
    .execute();
  return rows.length;
}

export async function acknowledge(db: DbOrTrx, userId: string, ids: string[] | 'all'): Promise<void> {
  let query = db
    .updateTable('notifications')
    .set({ acknowledged_at: new Date() })
    .where('user_id', '=', userId)
    .where('acknowledged_at', 'is', null);
  if (ids !== 'all') query = query.where('id', 'in', ids);
  await query.execute();
}

export function insert(
  db: DbOrTrx,
  values: { userId: string; type: string; target: string; text: string; createdBy: string | null },
) {
  return db
    .insertInto('notifications')
    .values({
      user_id: values.userId,
      type: values.type,
      target: values.target,
      text: values.text,
      created_by: values.createdBy,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}
