import type { DbOrTrx } from '../../db/database.js';

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

export function listOpenAssignedTo(db: DbOrTrx, userId: string, limit: number) {
  return db
    .selectFrom('tasks')
    .select(TASK_COLUMNS)
    .where('assigned_to', '=', userId)
    .where('completed_at', 'is', null)
    .orderBy('due_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}
