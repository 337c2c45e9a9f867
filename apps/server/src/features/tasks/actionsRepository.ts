import type { DbOrTrx } from '../../db/database.js';

// SQL of the task actions (complete, mark in progress): one task with the names its list item shows.

export function findTaskForAction(db: DbOrTrx, taskId: string, options: { forUpdate?: boolean } = {}) {
  const query = db
    .selectFrom('tasks')
    .select(['id', 'type', 'request_number', 'scope', 'completed_at', 'marked_in_progress_at', 'assigned_to'])
    .where('id', '=', taskId);
  return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export function findTaskItemRow(db: DbOrTrx, taskId: string) {
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
      'tb.name as triggered_by_name',
      'cb.name as completed_by_name',
      'pb.name as marked_in_progress_by_name',
      'at.name as assigned_to_name',
    ])
    .where('t.id', '=', taskId)
    .executeTakeFirstOrThrow();
}

export function markInProgress(db: DbOrTrx, taskId: string, by: string, at: Date) {
  return db
    .updateTable('tasks')
    .set({ marked_in_progress_at: at, marked_in_progress_by: by })
    .where('id', '=', taskId)
    .where('completed_at', 'is', null)
    .where('marked_in_progress_at', 'is', null)
    .returning([
      'id',
      'type',
      'subject',
      'request_number',
      'message_id',
      'due_at',
      'completed_at',
      'assigned_to',
    ])
    .executeTakeFirst();
}
