import {
  BUSINESS_TIME_ZONE,
  hasNoDueDate,
  instantInTimeZone,
  isSenderTaskType,
  type RequestTaskItem,
  type WorkflowTaskType,
} from '@dossier/core';
import type { Actor } from '../auth/index.js';
import { handoverOffers } from './policy.js';
import type { listTasksOfRequest } from './requestTaskRepository.js';

export {
  insertRequestTask,
  listPendingTasks,
  listTasksOfRequest,
  type NewRequestTask,
  REQUEST_TASKS_LIMIT,
  selectTaskItems,
  usersWorkingRequest,
} from './requestTaskRepository.js';

// The tasks of one request (the Tasks and Tasks (Recipient) lists of the request page), tasks added
// from the page, and the pending tasks that stop the KPI clock. Read through tasks_request_idx.

/** The task types whose work faces the recipient; they form the Tasks (Recipient) list. */
export const RECIPIENT_TASK_TYPES: readonly WorkflowTaskType[] = [
  'issueRequest',
  'confirmIssuedRequest',
  'followUp',
  'appointment',
  'appointmentReminder',
];

const TASK_TYPE_NAMES: Record<WorkflowTaskType, string> = {
  senderActionRequired: 'Sender Action Required',
  senderActionResponse: 'Sender Action Response',
  senderUrgentNote: 'Sender Urgent Note',
  issueRequest: 'Issue Request',
  confirmIssuedRequest: 'Confirm Issued Request',
  followUp: 'Follow Up',
  classifyIncomingMessage: 'Classify Incoming Message',
  qualityAssureResult: 'Quality Assure Result',
  payInvoice: 'Pay Invoice',
  appointment: 'Appointment',
  appointmentReminder: 'Appointment Reminder',
  actionDeferred: 'Action Deferred',
  exception: 'Exception',
  fallback: 'Fallback',
};

/** The notice a task added without one gets ("a default text that depends on task type"). */
export const DEFAULT_TASK_NOTICES: Record<WorkflowTaskType, string> = {
  senderActionRequired: 'The sender needs to act on this request before work can continue.',
  senderActionResponse: 'The sender has responded; review the response and continue the request.',
  senderUrgentNote: 'An urgent note was added to this request; read it and act on it.',
  issueRequest: 'Issue the request to the recipient.',
  confirmIssuedRequest: 'Confirm that the recipient has received the issued request.',
  followUp: 'Follow up with the recipient on the progress of this request.',
  classifyIncomingMessage: 'Classify the incoming message and link it to its request.',
  qualityAssureResult: 'Quality assure the result before it is released to the sender.',
  payInvoice: 'Pay the invoice received for this request.',
  appointment: 'Attend the appointment arranged for this request.',
  appointmentReminder: 'An appointment for this request is coming up.',
  actionDeferred: 'Work on this request has been deferred; resume it when the reason has passed.',
  exception: 'An automatic step failed for this request; check it and finish the step by hand.',
  // Names the controls that exist on each open task of the request's task list.
  fallback:
    "Nobody could be given one of this request's tasks automatically. In the Tasks list, Claim that " +
    'task or use Assign… to give it to someone trained for it; this task closes by itself once every ' +
    'task has someone.',
};

export function taskTypeName(type: string): string {
  return TASK_TYPE_NAMES[type as WorkflowTaskType] ?? type;
}

type TaskRow = Awaited<ReturnType<typeof listTasksOfRequest>>[number];

/**
 * One task of the request page. `isSender`: the actor is the request's sender side, who may
 * complete the sender's own tasks (answering a senderActionRequired task).
 */
export function toRequestTaskItem(
  row: TaskRow,
  actor: Actor,
  canHandle: boolean,
  now: Date,
  isSender = false,
): RequestTaskItem {
  const open = row.completed_at === null;
  const mayComplete = canHandle || row.assigned_to === actor.id || (isSender && isSenderTaskType(row.type));
  const due = row.due_at?.toISOString();
  const dated = due !== undefined && !hasNoDueDate(due);
  return {
    taskId: row.id,
    type: row.type,
    subject: row.subject,
    requestNumber: row.request_number,
    messageId: row.message_id,
    notice: row.notice,
    triggeredAt: row.triggered_at.toISOString(),
    triggeredByDisplayName: row.triggered_by_name,
    // Kept once completed: the Due column still says when it was due (completedAt says it is done).
    dueAt: due,
    completedAt: row.completed_at?.toISOString(),
    completedByDisplayName: row.completed_by_name ?? undefined,
    markedInProgressAt: row.marked_in_progress_at?.toISOString(),
    markedInProgressByDisplayName: row.marked_in_progress_by_name ?? undefined,
    isAssignedTo: row.assigned_to ?? undefined,
    isAssignedToDisplayName: row.assigned_to_name ?? undefined,
    isOverdue: open && dated && (row.due_at as Date) < now,
    // Rows written before completion recorded it fall back to the dates, as the reports do.
    wasCompletedBeforeDueDate: open
      ? undefined
      : !(row.was_overdue ?? (dated && (row.completed_at as Date) > (row.due_at as Date))),
    canNotComplete: !open || !mayComplete || row.work_open === true,
    canNotMarkInProgress:
      !open || row.type !== 'senderActionRequired' || row.marked_in_progress_at !== null || !canHandle,
    ...handoverOffers(actor, row, canHandle),
  };
}

/** The instant of a local date and time of day (YYYY-MM-DD, HH:MM) in the organisation's time zone. */
export function localDateTime(date: string, time: string, timeZone = BUSINESS_TIME_ZONE): Date {
  return instantInTimeZone(date, time, timeZone);
}
