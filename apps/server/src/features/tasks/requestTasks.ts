import {
  BUSINESS_TIME_ZONE,
  hasNoDueDate,
  instantInTimeZone,
  isSenderTaskType,
  type RequestTaskItem,
  type WorkflowTaskType,
} from '@dossier/core';
import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
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

/** Tasks with the names their list items show (who triggered, completed, is assigned…). */
export function selectTaskItems(db: DbOrTrx) {
  return db
    .selectFrom('tasks as t')
    .leftJoin('users as tb', 'tb.id', 't.triggered_by')
    .leftJoin('users as cb', 'cb.id', 't.completed_by')
    .leftJoin('users as pb', 'pb.id', 't.marked_in_progress_by')
    .leftJoin('users as at', 'at.id', 't.assigned_to')
    .select([
      't.id',
      't.type',
      't.subject',
      't.request_number',
      't.message_id',
      't.notice',
      't.triggered_at',
      't.due_at',
      't.completed_at',
      't.was_overdue',
      't.marked_in_progress_at',
      't.assigned_to',
      't.scope',
      'tb.name as triggered_by_name',
      'cb.name as completed_by_name',
      'pb.name as marked_in_progress_by_name',
      'at.name as assigned_to_name',
      // The work the task stands for is still open (a result awaiting QA, an invoice waiting to be
      // paid): the workflow completes the task with that work, so Complete is not offered by hand
      // (the same rule as the complete action's 409, taskActions/actions.ts).
      sql<boolean>`case
        when t.workflow_key like 'qualityAssureResult:result:%' then exists (
          select 1 from request_results r
          where r.request_number = t.request_number and r.id::text = split_part(t.workflow_key, ':', 3)
            and r.quality_assured_at is null and not r.quality_assurance_skipped and r.discarded_at is null)
        when t.workflow_key like 'payInvoice:invoice:%' then exists (
          select 1 from request_invoices i
          where i.request_number = t.request_number and i.id::text = split_part(t.workflow_key, ':', 3)
            and i.paid_at is null and i.discarded_at is null)
        else false end`.as('work_open'),
    ]);
}

/** The request's tasks, newest first; `types`: only these (the sender side sees its own only). */
export function listTasksOfRequest(db: DbOrTrx, requestNumber: string, types?: readonly string[]) {
  let query = selectTaskItems(db).where('t.request_number', '=', requestNumber);
  if (types) query = query.where('t.type', 'in', types.length > 0 ? [...types] : ['']);
  return query.orderBy('t.id', 'desc').limit(REQUEST_TASKS_LIMIT).execute();
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
