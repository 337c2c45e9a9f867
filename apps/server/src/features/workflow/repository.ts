import { sql } from 'kysely';
import type { DbOrTrx, Trx } from '../../db/database.js';
import { TASK_COLUMNS } from '../tasks/index.js';

// SQL of the workflow engine: the pending events it reacts to (events_workflow_pending_idx), the
// workflow tasks it adds and completes (tasks_request_idx, tasks_workflow_key_key) and the reminder
// sweep (tasks_open_type_due_idx, workflow_reminders).

/** One advisory lock key for the whole engine: events are reacted to one at a time, in id order. */
const ENGINE_LOCK = 0x77_6b_66_6c; // 'wkfl'

export async function tryEngineLock(trx: DbOrTrx): Promise<boolean> {
  const row = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${ENGINE_LOCK}) as ok`.execute(trx);
  return row.rows[0]?.ok === true;
}

export function nextPendingEvent(trx: Trx) {
  return trx
    .selectFrom('events')
    .select(['id', 'type', 'aggregate_type', 'aggregate_id', 'actor', 'payload', 'created_at'])
    .where('workflow_pending', '=', true)
    .orderBy('id')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

export function lockPendingEvent(trx: Trx, eventId: string) {
  return trx
    .selectFrom('events')
    .select(['id', 'type', 'aggregate_type', 'aggregate_id', 'actor', 'payload', 'created_at'])
    .where('id', '=', eventId)
    .where('workflow_pending', '=', true)
    .forUpdate()
    .executeTakeFirst();
}

export type PendingEvent = NonNullable<Awaited<ReturnType<typeof nextPendingEvent>>>;

export async function markEventDone(trx: DbOrTrx, eventId: string): Promise<void> {
  await trx.updateTable('events').set({ workflow_pending: false }).where('id', '=', eventId).execute();
}

export function findRequestForWorkflow(trx: DbOrTrx, requestNumber: string) {
  return trx
    .selectFrom('requests')
    .select([
      'request_number',
      'scope',
      'status',
      'applicant_name',
      'recipient',
      'recipient_name',
      'issued_at',
      'issue_method',
      'submitted_at',
    ])
    .where('request_number', '=', requestNumber)
    .executeTakeFirst();
}

export type WorkflowRequest = NonNullable<Awaited<ReturnType<typeof findRequestForWorkflow>>>;

/** Open tasks of a request, of some types (and optionally one workflow key), locked for completion. */
export function lockOpenTasksOfRequest(
  trx: DbOrTrx,
  requestNumber: string,
  filter: { types?: string[]; workflowKey?: string } = {},
) {
  let query = trx
    .selectFrom('tasks')
    .select(['id'])
    .where('request_number', '=', requestNumber)
    .where('completed_at', 'is', null);
  if (filter.types) query = query.where('type', 'in', filter.types.length ? filter.types : ['']);
  if (filter.workflowKey) query = query.where('workflow_key', '=', filter.workflowKey);
  return query.orderBy('id').forUpdate().execute();
}

export function findTaskRows(trx: DbOrTrx, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return trx.selectFrom('tasks').select(TASK_COLUMNS).where('id', 'in', ids).execute();
}

export function findResultState(trx: DbOrTrx, resultId: string) {
  return trx
    .selectFrom('request_results')
    .select(['quality_assurance_skipped', 'quality_assured_at', 'discarded_at'])
    .where('id', '=', resultId)
    .executeTakeFirst();
}

export function findInvoiceState(trx: DbOrTrx, invoiceId: string) {
  return trx
    .selectFrom('request_invoices')
    .select(['paid_at', 'discarded_at'])
    .where('id', '=', invoiceId)
    .executeTakeFirst();
}

export async function findTaskType(trx: DbOrTrx, taskId: string) {
  return trx
    .selectFrom('tasks')
    .select(['id', 'type', 'request_number', 'due_at', 'completed_at', 'scope', 'assigned_to'])
    .where('id', '=', taskId)
    .executeTakeFirst();
}

/** A note of the request's correspondence (its body is rich text), for the tasks it raises. */
export function findNote(trx: DbOrTrx, requestNumber: string, correspondenceId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(correspondenceId)) return Promise.resolve(undefined);
  return trx
    .selectFrom('correspondence')
    .select(['id', 'body', 'is_urgent_note'])
    .where('id', '=', correspondenceId)
    .where('request_number', '=', requestNumber)
    .where('kind', '=', 'note')
    .executeTakeFirst();
}

/** The open senderActionRequired tasks of a request, locked for completion by the sender's answer. */
export function lockOpenSenderTasks(trx: Trx, requestNumber: string, types: readonly string[]) {
  return trx
    .selectFrom('tasks')
    .select(['id'])
    .where('request_number', '=', requestNumber)
    .where('type', 'in', [...types])
    .where('completed_at', 'is', null)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Whether the request has an open exception task raised by a failed mail. */
export async function hasOpenMailException(trx: DbOrTrx, requestNumber: string): Promise<boolean> {
  const row = await trx
    .selectFrom('tasks')
    .select('id')
    .where('request_number', '=', requestNumber)
    .where('type', '=', 'exception')
    .where('completed_at', 'is', null)
    .where('workflow_key', 'like', 'exception:mail:%')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The open correspondence row (and its request) of a mail that failed for good. */
export function findCorrespondenceOfOutbox(trx: DbOrTrx, outboxId: string) {
  return trx
    .selectFrom('correspondence')
    .select(['id', 'request_number', 'kind'])
    .where('mail_outbox_id', '=', outboxId)
    .executeTakeFirst();
}

// ---- reminders ----

/** Open follow-ups past their due date on open requests, oldest due first. */
export function listOverdueFollowUps(trx: DbOrTrx, now: Date, limit: number) {
  return trx
    .selectFrom('tasks as t')
    .innerJoin('requests as r', 'r.request_number', 't.request_number')
    .select(['t.id', 't.due_at', 'r.request_number', 'r.scope', 'r.issued_at'])
    .where('t.type', '=', 'followUp')
    .where('t.completed_at', 'is', null)
    .where('t.due_at', '<', now)
    .where('r.status', '=', 'open')
    .where('r.issued_at', 'is not', null)
    .orderBy('t.due_at')
    .limit(limit)
    .execute();
}

/** Whether a reminder for the task went out on or after the day (yesterday means "not twice in a row"). */
export async function remindedSince(trx: DbOrTrx, taskId: string, day: string): Promise<boolean> {
  const row = await trx
    .selectFrom('workflow_reminders')
    .select('task_id')
    .where('task_id', '=', taskId)
    .where('sent_on', '>=', sql<Date>`${day}::date`)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a reminder; false when one was already recorded for that day (another instance won). */
export async function recordReminder(
  trx: DbOrTrx,
  taskId: string,
  day: string,
  outboxId: string | null,
): Promise<boolean> {
  const row = await trx
    .insertInto('workflow_reminders')
    .values({ task_id: taskId, sent_on: day, mail_outbox_id: outboxId })
    .onConflict((oc) => oc.columns(['task_id', 'sent_on']).doNothing())
    .returning('task_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function setReminderOutbox(trx: DbOrTrx, taskId: string, day: string, outboxId: string) {
  await trx
    .updateTable('workflow_reminders')
    .set({ mail_outbox_id: outboxId })
    .where('task_id', '=', taskId)
    .where('sent_on', '=', sql<Date>`${day}::date`)
    .execute();
}

/** Open appointments due before `until` with no appointmentReminder yet. */
export function listAppointmentsNeedingReminder(trx: DbOrTrx, now: Date, until: Date, limit: number) {
  return trx
    .selectFrom('tasks as t')
    .select(['t.id', 't.request_number', 't.scope', 't.due_at', 't.subject'])
    .where('t.type', '=', 'appointment')
    .where('t.completed_at', 'is', null)
    .where('t.request_number', 'is not', null)
    .where('t.due_at', '>', now)
    .where('t.due_at', '<=', until)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('tasks as r')
            .select('r.id')
            .where('r.workflow_key', '=', sql<string>`'appointmentReminder:task:' || t.id`),
        ),
      ),
    )
    .orderBy('t.due_at')
    .limit(limit)
    .execute();
}

/** Moves the due date of the request's open followUp tasks (the recipient said when): kept fixed. */
export async function moveOpenFollowUps(trx: DbOrTrx, requestNumber: string, dueAt: Date): Promise<number> {
  const result = await trx
    .updateTable('tasks')
    .set({ due_at: dueAt, due_fixed: true })
    .where('request_number', '=', requestNumber)
    .where('type', '=', 'followUp')
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
