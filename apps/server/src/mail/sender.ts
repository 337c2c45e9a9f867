import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import type { Db } from '../db/database.js';
import { setDeliveryStatusByOutboxId } from '../features/correspondence/repository.js';
import { recordMailDeliveryFailure } from '../features/workflow/mailFailure.js';
import type { FileStorage } from '../files/storage.js';
import type { MailAttachment } from './outbox.js';

// Sends what the outbox holds. Rows are claimed with SKIP LOCKED, so several instances never send
// one message twice; a failure is retried with growing delays, and after MAX_ATTEMPTS the message is
// marked failed (it stays in the outbox for administrators to see).

export const MAX_ATTEMPTS = 8;

export interface MailTransport {
  /** Delivers one message; answers the Message-ID the server accepted. */
  send(mail: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string | null;
    /** Keeps the Message-ID chosen when the mail was queued. */
    messageId?: string;
    attachments?: { filename: string; contentType: string; content: Readable }[] | undefined;
  }): Promise<string>;
  close(): void;
}

export function createSmtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    async send(mail) {
      const info = await transporter.sendMail({ ...mail, html: mail.html ?? undefined });
      return info.messageId;
    },
    close: () => transporter.close(),
  };
}

/** Seconds to wait before the next attempt: 30 s, 1 min, 2 min … capped at an hour. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}

/** A 5xx answer (no such mailbox, rejected) will not get better by trying again. */
function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** The bytes of each attachment, opened afresh for every attempt. */
async function openAttachments(storage: FileStorage | undefined, stored: unknown) {
  const list = (stored as MailAttachment[] | null) ?? [];
  if (list.length === 0) return undefined;
  if (!storage) throw new Error('The mail has attachments but no file storage is configured.');
  return Promise.all(
    list.map(async (a) => ({
      filename: a.name,
      contentType: a.contentType,
      content: await storage.open(a.fileKey),
    })),
  );
}

/** Sends the messages that are due; answers how many went out. */
export async function sendDueMail(
  db: Db,
  transport: MailTransport,
  from: string,
  batch = 20,
  storage?: FileStorage,
): Promise<number> {
  let sent = 0;
  for (let i = 0; i < batch; i++) {
    const outcome = await db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('mail_outbox')
        .selectAll()
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        // The database's clock, which set next_attempt_at: a mail committed within the same millisecond
        // as new Date() here was not due yet by the app's clock (milliseconds against microseconds).
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .orderBy('next_attempt_at')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!row) return 'empty';
      try {
        const messageId = await transport.send({
          from,
          to: row.to,
          subject: row.subject,
          text: row.text,
          html: row.html,
          ...(row.message_id ? { messageId: row.message_id } : {}),
          attachments: await openAttachments(storage, row.attachments),
        });
        await trx
          .updateTable('mail_outbox')
          .set({
            sent_at: new Date(),
            message_id: messageId,
            attempts: row.attempts + 1,
            last_error: null,
            // A secret it carried (a passcode) is not kept once it went out.
            ...(row.text_after_send === null ? {} : { text: row.text_after_send, html: null }),
          })
          .where('id', '=', row.id)
          .execute();
        // An issued request (or other correspondence) shows that its mail went out.
        await setDeliveryStatusByOutboxId(trx, row.id, 'sent');
        return 'sent';
      } catch (error) {
        const attempts = row.attempts + 1;
        const failed = attempts >= MAX_ATTEMPTS || isPermanent(error);
        await trx
          .updateTable('mail_outbox')
          .set({
            attempts,
            last_error: error instanceof Error ? error.message.slice(0, 1000) : String(error),
            next_attempt_at: sql<Date>`now() + make_interval(secs => ${retryDelaySeconds(attempts)})`,
            failed_at: failed ? new Date() : null,
          })
          .where('id', '=', row.id)
          .execute();
        if (failed) await setDeliveryStatusByOutboxId(trx, row.id, 'failed');
        // A mail about a request that cannot be delivered becomes an exception task (the workflow).
        if (failed)
          await recordMailDeliveryFailure(trx, {
            id: row.id,
            to: row.to,
            subject: row.subject,
            request_number: row.request_number,
            error: error instanceof Error ? error.message : String(error),
          });
        return 'failed';
      }
    });
    if (outcome === 'empty') break;
    if (outcome === 'sent') sent++;
  }
  return sent;
}
