import type { CorrespondenceItem, IssueRequestMethod } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { htmlToText } from '../../mail/incoming/sanitizeHtml.js';
import type { Actor } from '../auth/index.js';
import type { RequestRow } from '../requests/index.js';
import { canHandleRequest, isRequestStaff } from '../requests/index.js';
import { type CorrespondenceRow, listCorrespondenceRows } from './repository.js';

// The Correspondence list of the request page: every note, issued request and message, newest first.

/**
 * Only a note can be edited, only by the one who wrote it, and only while the request is not
 * closed: an issued letter or a received message is a record of what was actually sent.
 */
export function isCorrespondenceEditable(
  actor: Actor,
  request: Pick<RequestRow, 'status'>,
  row: Pick<CorrespondenceRow, 'kind' | 'created_by'>,
): boolean {
  return row.kind === 'note' && row.created_by === actor.id && request.status !== 'closed';
}

/** Received HTML goes to the page as its text: the page never parses a stranger's markup. */
function shownBody(body: CorrespondenceItem['body']): CorrespondenceItem['body'] {
  return body?.type === 'html' ? { type: 'text', content: htmlToText(String(body.content ?? '')) } : body;
}

const BLOCKED_REASON = 'This attachment was blocked because it could harm your computer.';

function toItem(actor: Actor, request: RequestRow, row: CorrespondenceRow): CorrespondenceItem {
  const attachments = (row.attachments ?? []).map((a) => ({
    key: a.key,
    name: a.name,
    // Messages linked before the reason was kept still say why in general terms.
    ...(a.blocked ? { blocked: true, blockedReason: a.blockedReason ?? BLOCKED_REASON } : {}),
  }));
  const method = (row.issue_request_method as IssueRequestMethod | null) ?? undefined;
  const item: CorrespondenceItem = {
    messageId: row.id,
    requestNumber: row.request_number,
    kind: row.kind,
    createdAt: new Date(row.created_at).toISOString(),
    createdByDisplayName: row.created_by_name ?? null,
    isEditable: isCorrespondenceEditable(actor, request, row),
    isUrgentNote: row.is_urgent_note,
    isLinkedToMessage: row.kind === 'message',
    isEmailCorrespondence: row.kind === 'message' || method === 'email',
    from: row.from_address,
    to: row.to_address,
    attachments,
    subject: row.subject,
    body: shownBody(row.body),
  };
  if (row.updated_at) item.updatedAt = new Date(row.updated_at).toISOString();
  if (row.updated_by_name) item.updatedByDisplayName = row.updated_by_name;
  if (method) item.issueRequestMethod = method;
  if (row.message_delivery_status) item.messageDeliveryStatus = row.message_delivery_status;
  if (row.unverified_sender) {
    item.unverifiedSender = true;
    item.canAcceptSender = canHandleRequest(actor, request) && request.status !== 'closed';
  }
  return item;
}

export async function listRequestCorrespondence(
  db: DbOrTrx,
  actor: Actor,
  request: RequestRow,
): Promise<CorrespondenceItem[]> {
  const rows = await listCorrespondenceRows(db, request.request_number);
  // The sender side sees a message only once staff accepted who sent it.
  const staff = isRequestStaff(actor, request);
  return rows.filter((row) => staff || !row.unverified_sender).map((row) => toItem(actor, request, row));
}
