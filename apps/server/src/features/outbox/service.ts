import type { AdminOutboxView, OutboxHit, OutboxMessageView, PagingQuery, SearchAnswer } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Db, DbOrTrx } from '../../db/database.js';
import { toSearchAnswer } from '../../db/search.js';
import { type FilesContext, openAllowedFile } from '../../files/service.js';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import { sanitizeEmailHtml } from '../../mail/incoming/sanitizeHtml.js';
import type { Actor } from '../auth/index.js';
import { setDeliveryStatusByOutboxId } from '../correspondence/index.js';
import { mailScopes, mayReachMail, requireMailView } from './policy.js';
import * as repo from './repository.js';

// The admin outbox (issue 6): outgoing mail newest first, filtered by status and address, one
// message with its body, and "Send again" for a failed one. Without SMTP_URL nothing is sent, so
// every message stays waiting here; with it, the sender retries and finally marks failures.

export interface OutboxSearchTerms {
  status?: repo.MailStatus | undefined;
  to?: string | undefined;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

function statusOf(row: { sent_at: Date | null; failed_at: Date | null }): repo.MailStatus {
  if (row.sent_at) return 'sent';
  return row.failed_at ? 'failed' : 'waiting';
}

/** `sending` says whether a sender is configured (SMTP_URL); without one every message waits. */
export function getOutboxPageView(actor: Actor, sending: boolean): AdminOutboxView {
  requireMailView(actor);
  return {
    $type: 'adminOutbox',
    title: 'Outbox',
    statuses: [...repo.MAIL_STATUSES],
    sending,
  } satisfies AdminOutboxView;
}

export async function searchOutbox(
  db: DbOrTrx,
  actor: Actor,
  terms: OutboxSearchTerms,
  paging: PagingQuery,
): Promise<SearchAnswer<OutboxHit>> {
  requireMailView(actor);
  const { rows, total, capped } = await repo.listMail(
    db,
    { ...terms, scopes: mailScopes(actor, 'mail:view') },
    paging.pageOffset,
    paging.pageSize,
  );
  const hits = rows.map((row) => ({
    id: row.id,
    item: {
      to: row.to,
      subject: row.subject,
      createdAt: row.created_at.toISOString(),
      status: statusOf(row),
      attempts: row.attempts,
      lastError: row.last_error,
      sentAt: iso(row.sent_at),
    },
  }));
  return { ...toSearchAnswer(hits, total, paging), totalIsCapped: capped };
}

/** The message when the actor may read it; 404 otherwise, so ids of other scopes tell nothing. */
async function readableMail(db: DbOrTrx, actor: Actor, id: string): Promise<repo.MailRow> {
  requireMailView(actor);
  const row = await repo.findMail(db, id);
  if (!row || !mayReachMail(actor, 'mail:view', row.scope)) throw notFound('No such message.');
  return row;
}

function messageView(actor: Actor, row: repo.MailRow): OutboxMessageView {
  const status = statusOf(row);
  const attachments = (row.attachments ?? []).map((a, index) => ({
    name: a.name,
    contentType: a.contentType,
    url: `/admin/outbox/${row.id}/attachments/${index}`,
  }));
  return {
    $type: 'adminOutboxMessage',
    title: 'Outgoing Message',
    mail: {
      id: row.id,
      to: row.to,
      subject: row.subject,
      createdAt: row.created_at.toISOString(),
      status,
      attempts: row.attempts,
      lastError: row.last_error,
      sentAt: iso(row.sent_at),
      failedAt: iso(row.failed_at),
      nextAttemptAt: status === 'waiting' ? iso(row.next_attempt_at) : null,
      messageId: row.message_id,
      scope: row.scope,
      text: row.text,
      // Our own mail is built from sanitized rich text, but the page never shows stored HTML as is.
      html: row.html ? sanitizeEmailHtml(row.html) : null,
      attachments,
    },
    actions: status === 'failed' && mayReachMail(actor, 'mail:edit', row.scope) ? ['resend'] : [],
  } satisfies OutboxMessageView;
}

/**
 * GET /admin/outbox/{id}/attachments/{index}: a file the message carries, for whoever may read the
 * message (issue 20). The file is the one sent, whoever owns it: reading the message is reading it.
 */
export async function openOutboxAttachment(
  db: DbOrTrx,
  files: FilesContext,
  actor: Actor,
  id: string,
  index: number,
) {
  const row = await readableMail(db, actor, id);
  const attachment = (row.attachments ?? [])[index];
  if (!attachment) throw notFound('No such attachment.');
  const opened = await openAllowedFile({ ...files, db }, attachment.fileKey);
  return { ...opened, name: attachment.name };
}

export async function getOutboxMessageView(
  db: DbOrTrx,
  actor: Actor,
  id: string,
): Promise<OutboxMessageView> {
  return messageView(actor, await readableMail(db, actor, id));
}

/** "Send again": a failed message is queued with its attempts reset; answers the new view. */
export async function resendMail(db: Db, actor: Actor, id: string): Promise<OutboxMessageView> {
  return db.transaction().execute(async (trx) => {
    const row = await readableMail(trx, actor, id);
    if (!mayReachMail(actor, 'mail:edit', row.scope)) throw forbidden();
    if (!(await repo.requeueFailedMail(trx, row.id)))
      throw conflict('Only a message whose sending failed can be sent again.');
    // An issued request shows its letter as queued again rather than failed.
    await setDeliveryStatusByOutboxId(trx, row.id, 'queued');
    await recordEvent(trx, {
      type: 'mail.resent',
      aggregateType: 'mail',
      aggregateId: row.id,
      actor: actor.id,
      payload: {
        summary: `Queued the failed mail to ${row.to} again.`,
        to: row.to,
        attempts: row.attempts,
        lastError: row.last_error,
      },
    });
    return messageView(actor, (await repo.findMail(trx, row.id)) as repo.MailRow);
  });
}
