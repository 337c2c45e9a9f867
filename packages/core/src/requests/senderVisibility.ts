import type { NotificationType } from '../notifications.js';
import { isSenderTaskType, type WorkflowTaskType } from '../tasks.js';
import type { RequestEventName } from './events.js';

// What the sender side of a request may see (issue 23, item 3). The sender side is a submitter of
// the request's organisation or an external user whose reference the request carries, who does not
// also work the request as staff. This file is the one place the rule is written; the request page,
// its history, the dashboard tiles, notifications, mail, Find Requests, reports and Download Files
// all apply it (docs/ARCHITECTURE.md, "What a sender sees").
//
// - Results: once delivered, that is quality-assured (or QA skipped) and not discarded.
// - Invoices, payments and remittance advice: never (staff business, with bank details).
// - Tasks: its own only (senderActionRequired). Staff tasks such as Quality Assure Result or Pay
//   Invoice speak of work the sender may not see, and who of the staff holds a task is staff
//   business.
// - History: every event but those of invoices, of results before delivery, of task handover, of
//   tasks other than its own, and staff downloads of results.
// - Notifications: about the request (issued, its own tasks, notes, mentions, closed, re-opened).
// - Mail: delivered results (and their discarding), its own tasks, closing and re-opening, and the
//   task mails the task type's settings send it, except for tasks about hidden work.
// - Reports and Find Requests: reports need reports:view, which no sender role holds; Find lists
//   the request itself (number, names, dates, status), nothing of its results or invoices.
// - Download Files: delivered results only.
// - Correspondence (issue 32, item 1): what the recipient sends in (mail, fax or post scans, later
//   the recipient's own uploads) is for staff. The sender side sees that such a message arrived
//   (date, from, subject), not its body or attachments, until staff share it with the sender (an
//   explicit, recorded and undoable action). A message whose sender staff have not accepted is not
//   listed at all.
// - Files: senderMayReadFile decides from every use of a file; a use that denies (an invoice, a
//   payment document, a result not delivered) wins over any use that grants. A list never offers
//   the sender side an attachment it may not open.

/** Request events the sender side does not see in the history. */
export const SENDER_HIDDEN_EVENTS = [
  'request.invoiceAdded',
  'request.invoicePaid',
  'request.invoicePartPaid',
  'request.invoicePaymentConfirmed',
  'request.invoiceDiscarded',
  'request.remittanceAdviceSent',
  'request.resultAdded',
  'request.resultDiscarded',
  'request.undeliveredResultDownloaded',
  'request.taskClaimed',
  'request.taskAssigned',
  'request.taskReleased',
  'request.taskReassigned',
  'request.legalHoldPlaced',
  'request.legalHoldRemoved',
  // The recipient's page: its addresses, passcode tries and what the recipient sent are staff's.
  'request.recipientAccessSent',
  'request.recipientAccessOpened',
  'request.recipientAccessLocked',
  'request.recipientAccessRevoked',
  'request.recipientUploaded',
  'request.recipientAnswered',
  'request.recipientMessage',
] as const satisfies readonly RequestEventName[];

/** Events about one task (payload.type names its type): shown to the sender for its own tasks only. */
export const TASK_EVENTS = [
  'request.taskAdded',
  'request.taskCompleted',
  'request.taskMarkedInProgress',
] as const satisfies readonly RequestEventName[];

/** Events that are the sender side's only when its own (payload.bySender is not false): downloads. */
export const SENDER_OWN_EVENTS = ['request.resultDownloaded'] as const satisfies readonly RequestEventName[];

export function senderSeesEvent(type: string, payload?: { type?: unknown; bySender?: unknown }): boolean {
  if ((SENDER_HIDDEN_EVENTS as readonly string[]).includes(type)) return false;
  if ((SENDER_OWN_EVENTS as readonly string[]).includes(type) && payload?.bySender === false) return false;
  if ((TASK_EVENTS as readonly string[]).includes(type))
    return typeof payload?.type === 'string' && isSenderTaskType(payload.type);
  return true;
}

/** The task types the sender side sees (on the request page, the dashboard, notifications). */
export function senderSeesTask(type: string): boolean {
  return isSenderTaskType(type);
}

/**
 * Task types whose work the sender side never sees (a result awaiting QA, an invoice): their task
 * mails never go to the sender or external users, whatever the task type's notify flags say.
 */
export const TASKS_ABOUT_HIDDEN_WORK: readonly WorkflowTaskType[] = ['qualityAssureResult', 'payInvoice'];

export function senderMayBeMailedAboutTask(type: string): boolean {
  return !(TASKS_ABOUT_HIDDEN_WORK as readonly string[]).includes(type);
}

/** A result reaches the sender side when quality-assured (or QA skipped) and not discarded. */
export function senderSeesResult(result: {
  qualityAssured: boolean;
  qualityAssuranceSkipped: boolean;
  discarded: boolean;
}): boolean {
  return !result.discarded && (result.qualityAssured || result.qualityAssuranceSkipped);
}

/** Invoices and their payments are staff business. */
export const SENDER_SEES_INVOICES = false;

/** The notifications a user of the sender side may get. */
export const SENDER_NOTIFICATION_TYPES: readonly NotificationType[] = [
  'mention',
  'requestIssued',
  'requestTaskAdded',
  'requestNoteAdded',
  'requestClosed',
  'requestReOpened',
];

/** Kinds of correspondence that come in from outside: for staff until shared with the sender. */
export const RECEIVED_CORRESPONDENCE_KINDS = ['message'] as const;

export function isReceivedCorrespondence(kind: string): boolean {
  return (RECEIVED_CORRESPONDENCE_KINDS as readonly string[]).includes(kind);
}

/** Whether the sender side is shown a correspondence entry at all (its date, from and subject). */
export function senderSeesCorrespondence(entry: { unverifiedSender: boolean }): boolean {
  return !entry.unverifiedSender;
}

/**
 * Whether the sender side sees an entry's body and attachments: staff's own notes and letters, and
 * what came in once staff shared it with the sender.
 */
export function senderSeesCorrespondenceContent(entry: {
  kind: string;
  unverifiedSender: boolean;
  sharedWithSender: boolean;
}): boolean {
  if (!senderSeesCorrespondence(entry)) return false;
  return !isReceivedCorrespondence(entry.kind) || entry.sharedWithSender;
}

/** Every use of one request file, as far as the sender side's access to it goes. */
export interface RequestFileUses {
  /** An invoice's file, a remittance advice or another payment document (discarded or not). */
  invoice: boolean;
  /** A result awaiting QA, or discarded. */
  undeliveredResult: boolean;
  /** A result quality-assured (or QA skipped) and not discarded. */
  deliveredResult: boolean;
  /** Any result. */
  result: boolean;
  /** An attachment of the issued request (the letter, the authority sent with it). */
  issuedRequest: boolean;
  /** An attachment of a correspondence entry whose content the sender side sees. */
  attachmentSenderSees: boolean;
  /** An attachment of any correspondence entry. */
  attachment: boolean;
  /**
   * Came in from outside (a received message's attachment, copied to the request): never one of the
   * request's own files, also once its message was unlinked and the file has no use left.
   */
  received: boolean;
  /** A letter printed with the recipient's passcode (by fax or post, issue 34): the recipient's alone. */
  carriesPasscode?: boolean;
}

/**
 * Whether the sender side may read a request file, from all its uses. A use that denies wins: an
 * invoice or payment document, and a result not yet delivered (awaiting QA, discarded), whatever
 * else the file is. Then a delivered result, the issued request's attachments and the attachments
 * of correspondence whose content the sender sees grant it; so do the request's own files
 * (authority, application, content: no other use). An attachment of a received message that was
 * not shared with the sender grants nothing, nor does a received file left with no use.
 */
export function senderMayReadFile(uses: RequestFileUses): boolean {
  if (uses.invoice || uses.undeliveredResult || uses.carriesPasscode) return false;
  if (uses.deliveredResult || uses.issuedRequest || uses.attachmentSenderSees) return true;
  return !uses.attachment && !uses.result && !uses.received;
}
