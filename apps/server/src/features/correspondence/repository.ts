import type { DbOrTrx } from '../../db/database.js';
import type { StoredAttachment } from '../../db/jsonColumns.js';

export type { StoredAttachment };

// SQL of the correspondence table: notes, issued requests and messages of one request. Read through
// correspondence_request_idx (request_number, created_at desc); the mail worker finds a row by its
// outbox id through correspondence_outbox_idx.

/** Newest first, with the display names of author and last editor. */
export function listCorrespondenceRows(db: DbOrTrx, requestNumber: string) {
  return db
    .selectFrom('correspondence as c')
    .leftJoin('users as author', 'author.id', 'c.created_by')
    .leftJoin('users as editor', 'editor.id', 'c.updated_by')
    .leftJoin('users as sharer', 'sharer.id', 'c.shared_with_sender_by')
    .selectAll('c')
    .select([
      'author.name as created_by_name',
      'editor.name as updated_by_name',
      'sharer.name as shared_by_name',
    ])
    .where('c.request_number', '=', requestNumber)
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .execute();
}

export type CorrespondenceRow = Awaited<ReturnType<typeof listCorrespondenceRows>>[number];

export function findCorrespondence(
  db: DbOrTrx,
  requestNumber: string,
  messageId: string,
  options: { forUpdate?: boolean } = {},
) {
  const query = db
    .selectFrom('correspondence')
    .selectAll()
    .where('request_number', '=', requestNumber)
    .where('id', '=', messageId);
  return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export interface NewCorrespondence {
  requestNumber: string;
  kind: 'note' | 'issuedRequest' | 'message';
  isUrgentNote?: boolean;
  issueRequestMethod?: string | null;
  from?: unknown;
  to?: unknown;
  subject?: string | null;
  body: unknown;
  attachments: StoredAttachment[];
  messageId?: string | null;
  mailOutboxId?: string | null;
  messageDeliveryStatus?: string | null;
  createdBy: string | null;
  createdAt?: Date;
  unverifiedSender?: boolean;
  /** Sent in by the recipient on the recipient's page (issue 34). */
  viaRecipientPage?: boolean;
}

export async function insertCorrespondence(db: DbOrTrx, row: NewCorrespondence): Promise<string> {
  const inserted = await db
    .insertInto('correspondence')
    .values({
      request_number: row.requestNumber,
      kind: row.kind,
      is_urgent_note: row.isUrgentNote ?? false,
      issue_request_method: row.issueRequestMethod ?? null,
      from_address: row.from == null ? null : JSON.stringify(row.from),
      to_address: row.to == null ? null : JSON.stringify(row.to),
      subject: row.subject ?? null,
      body: JSON.stringify(row.body),
      attachments: JSON.stringify(row.attachments),
      message_id: row.messageId ?? null,
      mail_outbox_id: row.mailOutboxId ?? null,
      message_delivery_status: row.messageDeliveryStatus ?? null,
      created_by: row.createdBy,
      unverified_sender: row.unverifiedSender ?? false,
      via_recipient_page: row.viaRecipientPage ?? false,
      ...(row.createdAt ? { created_at: row.createdAt } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateCorrespondenceContent(
  db: DbOrTrx,
  id: string,
  change: { body: unknown; attachments: StoredAttachment[]; updatedBy: string; at: Date },
) {
  await db
    .updateTable('correspondence')
    .set({
      body: JSON.stringify(change.body),
      attachments: JSON.stringify(change.attachments),
      updated_by: change.updatedBy,
      updated_at: change.at,
    })
    .where('id', '=', id)
    .execute();
}

/** The mail worker reports what happened to an outbox message on the correspondence that sent it. */
export async function setDeliveryStatusByOutboxId(
  db: DbOrTrx,
  outboxId: string,
  status: 'queued' | 'sent' | 'failed',
) {
  await db
    .updateTable('correspondence')
    .set({ message_delivery_status: status })
    .where('mail_outbox_id', '=', outboxId)
    .execute();
}

/** Staff accepted the sender of a message: answers false when there was nothing to accept. */
export async function acceptSender(db: DbOrTrx, requestNumber: string, id: string): Promise<boolean> {
  const row = await db
    .updateTable('correspondence')
    .set({ unverified_sender: false })
    .where('request_number', '=', requestNumber)
    .where('id', '=', id)
    .where('unverified_sender', '=', true)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Shares a received message with the sender side, or stops sharing it (`by` null): answers false
 * when it already was so (someone else was quicker).
 */
export async function setSharedWithSender(
  db: DbOrTrx,
  requestNumber: string,
  id: string,
  change: { by: string; at: Date } | null,
): Promise<boolean> {
  const row = await db
    .updateTable('correspondence')
    .set(
      change
        ? { shared_with_sender_at: change.at, shared_with_sender_by: change.by }
        : { shared_with_sender_at: null, shared_with_sender_by: null },
    )
    .where('request_number', '=', requestNumber)
    .where('id', '=', id)
    .where('shared_with_sender_at', change ? 'is' : 'is not', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
