import { dueFromSettings, type TaskTypeSettingsEntryData, type WorkflowTaskType } from '@dossier/core';
import type { Db, DbOrTrx } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import { getPublicHolidays, getTaskTypeSettings } from './effective.js';
import * as repo from './repository.js';

// Holidays drive due dates: after the public holidays or task type settings of a configuration
// change, the due dates of open tasks in its scope are computed again (trigger time + the task
// type's defaultDueDateInBusinessDays, skipping weekends and the holidays in effect for the task's
// scope). A scope can hold a hundred thousand open tasks, so it is a job after the commit (it reads
// the new configuration then), and the tasks move in batches.

export const DUE_DATES_QUEUE = 'dueDates.recompute';
const BATCH = 1000;

/** The entry types whose change moves due dates. */
export const DUE_DATE_TYPES = new Set(['publicHolidaysEntry', 'taskTypeSettingsEntry']);

/**
 * Queued in the transaction of the change, so it exists exactly when the change committed. Without
 * a job queue (an instance built without one, as in some tests) it runs at once, in the transaction.
 */
export async function scheduleDueDateRecompute(
  trx: DbOrTrx,
  jobs: JobQueue | undefined,
  scopePath: string,
): Promise<void> {
  if (jobs) await jobs.send(trx, DUE_DATES_QUEUE, { scopePath });
  else await recomputeOpenDueDates(trx, scopePath);
}

/** The job: one transaction, settings and holidays read once per scope and type. */
export function runDueDateRecompute(db: Db, scopePath: string): Promise<number> {
  return db.transaction().execute((trx) => recomputeOpenDueDates(trx, scopePath));
}

/** Answers how many tasks moved. */
export async function recomputeOpenDueDates(trx: DbOrTrx, scopePath: string): Promise<number> {
  const tasks = await repo.listOpenDatedTasks(trx, scopePath);
  const settingsOf = new Map<string, Promise<TaskTypeSettingsEntryData | undefined>>();
  const holidaysOf = new Map<string, Promise<string[]>>();
  const moves: { id: string; dueAt: Date }[] = [];
  for (const task of tasks) {
    const key = `${task.scope} ${task.type}`;
    if (!settingsOf.has(key))
      settingsOf.set(
        key,
        getTaskTypeSettings(trx, task.scope, task.type as WorkflowTaskType).then((s) => s ?? undefined),
      );
    const settings = await settingsOf.get(key);
    if (settings === undefined) continue;
    if (!holidaysOf.has(task.scope)) holidaysOf.set(task.scope, getPublicHolidays(trx, task.scope));
    const holidays = (await holidaysOf.get(task.scope)) ?? [];
    const due = dueFromSettings(task.triggered_at, settings, holidays);
    if (task.due_at && due.getTime() === task.due_at.getTime()) continue;
    moves.push({ id: task.id, dueAt: due });
  }
  for (let i = 0; i < moves.length; i += BATCH) await repo.setTaskDueDates(trx, moves.slice(i, i + BATCH));
  return moves.length;
}
