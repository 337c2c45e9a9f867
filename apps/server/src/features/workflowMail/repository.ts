import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

// SQL of the workflow mails: who the sender and the external users of a request are, and the task or
// result a mail is about.

/** The email of the request's sender: the user it was submitted on behalf of, else its submitter. */
export async function senderEmail(
  db: DbOrTrx,
  request: { submitted_by: string | null; submitted_on_behalf_of: string | null },
): Promise<string | undefined> {
  const userId = request.submitted_on_behalf_of ?? request.submitted_by;
  if (!userId) return undefined;
  const row = await db
    .selectFrom('users')
    .select('email')
    .where('id', '=', userId)
    .where('disabled', '=', false)
    .executeTakeFirst();
  return row?.email || undefined;
}

/** The emails of the external users whose reference the request carries, within their role's scope. */
export async function externalUserEmails(
  db: DbOrTrx,
  request: { scope: string; external_user_references: string[] },
): Promise<string[]> {
  if (request.external_user_references.length === 0) return [];
  const rows = await db
    .selectFrom('user_roles as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select('u.email')
    .distinct()
    .where('r.role', '=', 'c:roles:external')
    .where('r.external_reference', 'in', request.external_user_references)
    // A role covers its scope and everything below it.
    .where(sql<boolean>`starts_with(${request.scope}, r.scope)`)
    .where('u.disabled', '=', false)
    .limit(100)
    .execute();
  return rows.map((r) => r.email).filter(Boolean);
}

export function findTask(db: DbOrTrx, taskId: string) {
  if (!/^\d+$/.test(taskId)) return Promise.resolve(undefined);
  return db
    .selectFrom('tasks as t')
    .leftJoin('users as a', 'a.id', 't.assigned_to')
    .select([
      't.id',
      't.type',
      't.subject',
      't.notice',
      't.request_number',
      't.due_at',
      't.completed_at',
      'a.name as assigned_to_name',
    ])
    .where('t.id', '=', taskId)
    .executeTakeFirst();
}

export function findResultFile(db: DbOrTrx, resultId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(resultId)) return Promise.resolve(undefined);
  return db
    .selectFrom('request_results as r')
    .innerJoin('files as f', 'f.key', 'r.file_key')
    .select([
      'r.id',
      'r.request_number',
      'r.created_at',
      'f.key',
      'f.name',
      'f.content_type',
      'f.size',
      'f.declared_size',
      'f.classification',
      'r.quality_assurance_skipped',
      'r.quality_assured_at',
      'r.discarded_at',
    ])
    .where('r.id', '=', resultId)
    .executeTakeFirst();
}

export function findUserName(db: DbOrTrx, userId: string) {
  return db.selectFrom('users').select(['id', 'name', 'email']).where('id', '=', userId).executeTakeFirst();
}
