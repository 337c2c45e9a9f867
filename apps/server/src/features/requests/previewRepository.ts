import type { DbOrTrx } from '../../db/database.js';

// The reads of the hover preview (preview.ts).

export async function findUserName(db: DbOrTrx, userId: string): Promise<string | undefined> {
  return (await db.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst())?.name;
}

/** The request's newest correspondence; the sender side's only among messages staff accepted. */
export function latestCorrespondence(db: DbOrTrx, requestNumber: string, staff: boolean) {
  return db
    .selectFrom('correspondence as c')
    .leftJoin('users as u', 'u.id', 'c.created_by')
    .select([
      'c.kind',
      'c.created_at',
      'c.subject',
      'c.body',
      'c.unverified_sender',
      'c.shared_with_sender_at',
      'u.name as author',
    ])
    .where('c.request_number', '=', requestNumber)
    .$if(!staff, (q) => q.where('c.unverified_sender', '=', false))
    .orderBy('c.created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}
