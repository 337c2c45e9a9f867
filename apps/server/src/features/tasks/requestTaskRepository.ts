import type { PendingTask, WorkflowTaskType } from '@dossier/core';
import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

// The SQL of a request's tasks: the page's lists, tasks added from the page, the KPI's pending tasks.
// Read through tasks_request_idx.

/** The request page shows at most this many tasks; a request has a handful in practice. */
export const REQUEST_TASKS_LIMIT = 200;

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

/** The pending tasks of a request (any state), for the KPI figures. */
export async function listPendingTasks(db: DbOrTrx, requestNumber: string): Promise<PendingTask[]> {
  const rows = await db
    .selectFrom('tasks')
    .select(['type', 'triggered_at', 'completed_at'])
    .where('request_number', '=', requestNumber)
    .where('type', 'in', ['senderActionRequired', 'actionDeferred'])
    .execute();
  return rows.map((r) => ({
    type: r.type as PendingTask['type'],
    triggeredAt: r.triggered_at,
    completedAt: r.completed_at,
  }));
}

export interface NewRequestTask {
  type: WorkflowTaskType;
  requestNumber: string;
  scope: string;
  subject: string;
  notice: string;
  dueAt: Date;
  /** A due date chosen by a person: not moved when holidays or task settings change. */
  dueFixed?: boolean;
  triggeredBy: string | null;
  triggeredAt?: Date;
}

export async function insertRequestTask(trx: DbOrTrx, task: NewRequestTask): Promise<string> {
  const row = await trx
    .insertInto('tasks')
    .values({
      type: task.type,
      subject: task.subject,
      request_number: task.requestNumber,
      message_id: null,
      scope: task.scope,
      notice: task.notice,
      triggered_at: task.triggeredAt ?? new Date(),
      triggered_by: task.triggeredBy,
      due_at: task.dueAt,
      due_fixed: task.dueFixed ?? false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The users assigned tasks of the request (open or done): the handlers working it. */
export async function usersWorkingRequest(db: DbOrTrx, requestNumber: string): Promise<string[]> {
  const rows = await db
    .selectFrom('tasks')
    .select('assigned_to')
    .distinct()
    .where('request_number', '=', requestNumber)
    .where('assigned_to', 'is not', null)
    .limit(50)
    .execute();
  return rows.map((r) => r.assigned_to).filter((id): id is string => id !== null);
}
