import type { DbOrTrx } from '../db/database.js';

// Outgoing mail is written to the outbox inside the transaction of the change that causes it, so a
// message exists exactly when the change committed. The mail service (a later issue) sends the
// unsent rows through SMTP; until then administrators and tests read them from the table.

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export async function enqueueMail(trx: DbOrTrx, mail: OutgoingMail): Promise<string> {
  const row = await trx
    .insertInto('mail_outbox')
    .values({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The newest messages to an address, newest first (tests and the admin outbox view). */
export function listMailTo(db: DbOrTrx, to: string, limit = 20) {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('to', '=', to)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
