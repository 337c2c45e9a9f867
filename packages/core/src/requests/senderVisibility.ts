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
// - History: every event but those of invoices, of results before delivery, of task handover, and
//   of tasks other than its own.
// - Notifications: about the request (issued, its own tasks, notes, mentions, closed, re-opened).
// - Mail: delivered results (and their discarding), its own tasks, closing and re-opening, and the
//   task mails the task type's settings send it, except for tasks about hidden work.
// - Reports and Find Requests: reports need reports:view, which no sender role holds; Find lists
//   the request itself (number, names, dates, status), nothing of its results or invoices.
// - Download Files: delivered results only.

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
] as const satisfies readonly RequestEventName[];

/** Events about one task (payload.type names its type): shown to the sender for its own tasks only. */
export const TASK_EVENTS = [
  'request.taskAdded',
  'request.taskCompleted',
  'request.taskMarkedInProgress',
] as const satisfies readonly RequestEventName[];

export function senderSeesEvent(type: string, payload?: { type?: unknown }): boolean {
  if ((SENDER_HIDDEN_EVENTS as readonly string[]).includes(type)) return false;
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
