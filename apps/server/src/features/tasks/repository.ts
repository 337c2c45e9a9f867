import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import { scopeAtOrUnder } from '../../db/scopes.js';

export const TASK_COLUMNS = [
  'id',
  'type',
  'subject',
  'request_number',
  'message_id',
  'due_at',
  'completed_at',
  'assigned_to',
] as const;

/**
 * Which tasks a user may work as it is now: `requests` matches the request scopes and references
 * (the task's kept copies of its request's, migration 8001) where it handles requests, `inboxScopes`
 * the scopes of the inbox it works (a task of an inbox message has no request).
 */
export interface Workable {
  requests: (columns: {
    scope: RawBuilder<unknown>;
    externalUserReferences: RawBuilder<unknown>;
  }) => RawBuilder<SqlBool>;
  inboxScopes: readonly string[];
}

function workableTask(w: Workable): RawBuilder<SqlBool> {
  const onRequest = w.requests({
    scope: sql.ref('request_scope'),
    externalUserReferences: sql.ref('request_external_user_references'),
  });
  const inbox = w.inboxScopes.length
    ? sql.join(
        w.inboxScopes.map((s) => scopeAtOrUnder(sql.ref('scope'), s)),
        sql` or `,
      )
    : sql`false`;
  return sql<SqlBool>`((request_scope is not null and ${onRequest}) or (request_number is null and (${inbox})))`;
}

/** The user's open tasks, of those it may still work (a task kept after its roles went is not listed). */
export function listOpenAssignedTo(db: DbOrTrx, userId: string, workable: Workable, limit: number) {
  return db
    .selectFrom('tasks')
    .select(TASK_COLUMNS)
    .where('assigned_to', '=', userId)
    .where('completed_at', 'is', null)
    .where(workableTask(workable))
    .orderBy('due_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export interface NewWorkflowTask {
  type: string;
  subject: string;
  requestNumber: string | null;
  messageId?: string | null;
  scope: string;
  notice: string;
  triggeredAt: Date;
  triggeredBy: string | null;
  dueAt: Date;
  dueFixed?: boolean;
  workflowKey: string | null;
}

/** Inserts the task unless one with the same workflow key exists; answers its id if inserted. */
export async function insertWorkflowTask(trx: DbOrTrx, task: NewWorkflowTask): Promise<string | undefined> {
  const row = await trx
    .insertInto('tasks')
    .values({
      type: task.type,
      subject: task.subject,
      request_number: task.requestNumber,
      message_id: task.messageId ?? null,
      scope: task.scope,
      notice: task.notice,
      triggered_at: task.triggeredAt,
      triggered_by: task.triggeredBy,
      due_at: task.dueAt,
      due_fixed: task.dueFixed ?? false,
      workflow_key: task.workflowKey,
    })
    .onConflict((oc) => oc.column('workflow_key').where('workflow_key', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/**
 * Completes an open task; was_overdue records whether it was completed after its due date (a
 * 9999-12-31 due date never is). Answers the row for the live push, or undefined if it was done.
 */
export function completeTaskRow(trx: DbOrTrx, taskId: string, by: string | null, at: Date) {
  return trx
    .updateTable('tasks')
    .set({
      completed_at: at,
      completed_by: by,
      was_overdue: sql<boolean>`coalesce(due_at < ${at}, false)`,
    })
    .where('id', '=', taskId)
    .where('completed_at', 'is', null)
    .returning(TASK_COLUMNS)
    .executeTakeFirst();
}
