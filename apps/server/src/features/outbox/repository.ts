import { MAIL_STATUSES, type MailStatus, OUTBOX_COUNT_CAP } from '@dossier/core';
import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import { likeStartsWith } from '../../db/search.js';

// SQL of the admin outbox. The list reads newest first by id and stops early: unfiltered through the
// primary key, a status through its partial index, an address through (lower(to), id) and a
// sub-scope through (scope text_pattern_ops, id) (migration 0023), so a page costs the same at ten
// rows or ten million. Counting stops at COUNT_CAP for the same reason.

// The cap and the statuses are part of the search's contract (core contracts/outbox.ts).
export const COUNT_CAP = OUTBOX_COUNT_CAP;
export { MAIL_STATUSES, type MailStatus };

export interface OutboxFilter {
  status?: MailStatus | undefined;
  /** An exact address, compared case-insensitively. */
  to?: string | undefined;
  /** Scopes whose mail (their own and below) the reader may see. */
  scopes: string[];
}

function filtered(db: DbOrTrx, filter: OutboxFilter) {
  let query = db.selectFrom('mail_outbox');
  // A reader of '/' sees everything: no scope condition, so the primary key alone serves the page.
  if (!filter.scopes.includes('/'))
    query = query.where((eb) => eb.or(filter.scopes.map((s) => eb('scope', 'like', likeStartsWith(s)))));
  if (filter.status === 'waiting') query = query.where('sent_at', 'is', null).where('failed_at', 'is', null);
  if (filter.status === 'sent') query = query.where('sent_at', 'is not', null);
  if (filter.status === 'failed') query = query.where('failed_at', 'is not', null);
  if (filter.to) query = query.where(sql`lower("to")`, '=', filter.to.trim().toLowerCase());
  return query;
}

export const SUMMARY_COLUMNS = [
  'id',
  'to',
  'subject',
  'created_at',
  'sent_at',
  'failed_at',
  'attempts',
  'last_error',
  'next_attempt_at',
  'scope',
] as const;

/** One page, newest first, and the number of matches up to COUNT_CAP (capped says it stopped). */
export async function listMail(db: DbOrTrx, filter: OutboxFilter, offset: number, limit: number) {
  if (filter.scopes.length === 0) return { rows: [], total: 0, capped: false };
  const query = filtered(db, filter);
  const [rows, count] = await Promise.all([
    query.select(SUMMARY_COLUMNS).orderBy('id', 'desc').offset(offset).limit(limit).execute(),
    db
      .selectFrom(
        query
          .select('id')
          .limit(COUNT_CAP + 1)
          .as('capped'),
      )
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const n = Number(count.n);
  return { rows, total: Math.min(n, COUNT_CAP), capped: n > COUNT_CAP };
}

const ID = /^[1-9]\d{0,17}$/;

export async function findMail(db: DbOrTrx, id: string) {
  if (!ID.test(id)) return undefined;
  return db
    .selectFrom('mail_outbox')
    .select([...SUMMARY_COLUMNS, 'text', 'html', 'attachments', 'message_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}
export type MailRow = NonNullable<Awaited<ReturnType<typeof findMail>>>;

/**
 * Queues a failed message again: attempts start from zero and it is due now, so the sender (with
 * SMTP_URL) takes it on its next pass; the NOTIFY wakes it at once. Answers false when the message
 * is not (or no longer) failed, so two clicks queue it once.
 */
export async function requeueFailedMail(db: DbOrTrx, id: string): Promise<boolean> {
  const row = await db
    .updateTable('mail_outbox')
    .set({ attempts: 0, failed_at: null, next_attempt_at: sql`now()` })
    .where('id', '=', id)
    .where('failed_at', 'is not', null)
    .where('sent_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  await sql`select pg_notify('mail_outbox', ${id})`.execute(db);
  return true;
}
