import {
  type CorrespondenceItem,
  type IssueRequestMethod,
  isReceivedCorrespondence,
  senderSeesCorrespondence,
  senderSeesCorrespondenceContent,
} from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { htmlToText } from '../../mail/incoming/sanitizeHtml.js';
import type { Actor } from '../auth/index.js';
import type { RequestRow } from '../requests/index.js';
import { canHandleRequest, isRequestStaff, readableRequestFiles } from '../requests/index.js';
import { shareWithSenderOffer, stopSharingWithSenderOffer } from './policy.js';
import { type CorrespondenceRow, listCorrespondenceRows } from './repository.js';

// The Correspondence list of the request page: every note, issued request and message, newest first.
// The sender side gets what @dossier/core's rule lets it see (senderVisibility.ts): no message staff
// have not accepted, of a received message not shared with it only the date, from and subject, and
// of every entry only the attachments it may open (readableRequestFiles): the list never offers a
// file the files route refuses.

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

const sharedWithSender = (row: CorrespondenceRow) => row.shared_with_sender_at !== null;

/** Whether the sender side sees this entry's body and attachments. */
const contentSeen = (row: CorrespondenceRow) =>
  senderSeesCorrespondenceContent({
    kind: row.kind,
    unverifiedSender: row.unverified_sender,
    sharedWithSender: sharedWithSender(row),
  });

function toItem(
  actor: Actor,
  request: RequestRow,
  row: CorrespondenceRow,
  // The keys the sender side may open; undefined for staff, who open them all.
  readable: Set<string> | undefined,
): CorrespondenceItem {
  if (readable && !contentSeen(row)) return withheldItem(actor, request, row);
  const listed = (row.attachments ?? []).filter((a) => !readable || (!a.blocked && readable.has(a.key)));
  const attachments = listed.map((a) => ({
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
  if (row.via_recipient_page) item.viaRecipientPage = true;
  if (row.unverified_sender) {
    item.unverifiedSender = true;
    item.canAcceptSender = canHandleRequest(actor, request) && request.status !== 'closed';
  }
  if (!readable && isReceivedCorrespondence(row.kind)) {
    if (row.shared_with_sender_at)
      item.sharedWithSender = {
        at: new Date(row.shared_with_sender_at).toISOString(),
        byDisplayName: row.shared_by_name ?? null,
      };
    item.canShareWithSender = shareWithSenderOffer(actor, request, row) === 'offered';
    item.canStopSharingWithSender = stopSharingWithSenderOffer(actor, request, row) === 'offered';
  }
  return item;
}

/** A received message the sender side is not shown the content of: that it arrived, from, subject. */
function withheldItem(actor: Actor, request: RequestRow, row: CorrespondenceRow): CorrespondenceItem {
  return {
    messageId: row.id,
    requestNumber: row.request_number,
    kind: row.kind,
    createdAt: new Date(row.created_at).toISOString(),
    createdByDisplayName: null,
    isEditable: isCorrespondenceEditable(actor, request, row),
    isUrgentNote: false,
    isLinkedToMessage: row.kind === 'message',
    isEmailCorrespondence: row.kind === 'message',
    from: row.from_address,
    attachments: [],
    subject: row.subject,
    body: { type: 'text', content: '' },
    withheld: true,
  };
}

export async function listRequestCorrespondence(
  db: DbOrTrx,
  actor: Actor,
  request: RequestRow,
): Promise<CorrespondenceItem[]> {
  const rows = await listCorrespondenceRows(db, request.request_number);
  if (isRequestStaff(actor, request)) return rows.map((row) => toItem(actor, request, row, undefined));
  const shown = rows.filter((row) => senderSeesCorrespondence({ unverifiedSender: row.unverified_sender }));
  const keys = shown.filter(contentSeen).flatMap((row) => (row.attachments ?? []).map((a) => a.key));
  const readable = await readableRequestFiles(db, actor, request, keys);
  return shown.map((row) => toItem(actor, request, row, readable));
}
