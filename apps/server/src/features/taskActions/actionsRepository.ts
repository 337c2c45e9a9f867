import type { DbOrTrx } from '../../db/database.js';
import { selectTaskItems, TASK_COLUMNS } from '../tasks/index.js';

// SQL of the task actions (complete, mark in progress): one task with the names its list item shows.

export function findTaskForAction(db: DbOrTrx, taskId: string, options: { forUpdate?: boolean } = {}) {
  const query = db
    .selectFrom('tasks')
    .select([
      'id',
      'type',
      'request_number',
      'scope',
      'completed_at',
      'marked_in_progress_at',
      'assigned_to',
      'workflow_key',
    ])
    .where('id', '=', taskId);
  return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export function findTaskItemRow(db: DbOrTrx, taskId: string) {
  return selectTaskItems(db).where('t.id', '=', taskId).executeTakeFirstOrThrow();
}

export function markInProgress(db: DbOrTrx, taskId: string, by: string, at: Date) {
  return db
    .updateTable('tasks')
    .set({ marked_in_progress_at: at, marked_in_progress_by: by })
    .where('id', '=', taskId)
    .where('completed_at', 'is', null)
    .where('marked_in_progress_at', 'is', null)
    .returning(TASK_COLUMNS)
    .executeTakeFirst();
}
