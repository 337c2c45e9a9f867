import type { DbOrTrx } from '../../db/database.js';

/** The names of the users the page names (submitter, who last changed it…), by id. */
export async function userNames(db: DbOrTrx, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
