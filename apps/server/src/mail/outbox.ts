import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { DbOrTrx, Trx } from '../db/database.js';
import type { MailAttachment } from '../db/jsonColumns.js';

// Outgoing mail is written to the outbox inside the transaction of the change that causes it, so a
// message exists exactly when the change committed. The mail worker (mail/worker.ts) sends the
// unsent rows through SMTP; without SMTP_URL administrators and tests read them from the table.

export type { MailAttachment };

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[] | undefined;
  /** Chosen up front (see newMessageId) when replies must be matched to what caused the mail. */
  messageId?: string;
  /**
   * The request the mail is about. Give it for every such mail: a permanent failure then becomes an
   * exception task on the request, and a reply is matched to it by the Message-ID it was sent with.
   */
  requestNumber?: string;
  /**
   * Whose mail it is, for the admin outbox: the user's scope for account mail. Left out, mail about a
   * request takes the request's scope, and other mail '/' (seen only by administrators of the whole
   * service).
   */
  scope?: string;
  /**
   * For a mail carrying a secret (the recipient's passcode): the text that replaces its text once it
   * was sent (its html is dropped then), so the database keeps the secret only while the mail waits.
   */
  textAfterSend?: string;
}

export async function enqueueMail(trx: Trx, mail: OutgoingMail): Promise<string> {
  const row = await trx
    .insertInto('mail_outbox')
    .values({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      attachments: JSON.stringify(mail.attachments ?? []),
      message_id: mail.messageId ?? null,
      request_number: mail.requestNumber ?? null,
      text_after_send: mail.textAfterSend ?? null,
      scope:
        mail.scope ??
        (mail.requestNumber
          ? sql<string>`coalesce((select scope from requests where request_number = ${mail.requestNumber}), '/')`
          : '/'),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A Message-ID in the form SMTP expects, `<random@domain>`, for a mail about to be queued. */
export function newMessageId(domain: string): string {
  return `<${randomUUID()}@${domain}>`;
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
