import { dueAfterBusinessDays, type WorkflowTaskType } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { getPublicHolidays, getTaskTypeSettings } from './effective.js';
import * as repo from './repository.js';

/**
 * Holidays drive due dates: after the public holidays or task type settings of a configuration
 * change, the due dates of open tasks in its scope are computed again (trigger time + the task
 * type's defaultDueDateInBusinessDays, skipping weekends and the holidays in effect for the task's
 * scope). Run inside the transaction of the change so it reads the new configuration. Answers how
 * many tasks moved.
 */
export async function recomputeOpenDueDates(trx: DbOrTrx, scopePath: string): Promise<number> {
  const tasks = await repo.listOpenDatedTasks(trx, scopePath);
  const holidaysOf = new Map<string, Promise<string[]>>();
  let moved = 0;
  for (const task of tasks) {
    const settings = await getTaskTypeSettings(trx, task.scope, task.type as WorkflowTaskType);
    if (!settings) continue;
    if (!holidaysOf.has(task.scope)) holidaysOf.set(task.scope, getPublicHolidays(trx, task.scope));
    const holidays = (await holidaysOf.get(task.scope)) ?? [];
    const due = dueAfterBusinessDays(task.triggered_at, settings.defaultDueDateInBusinessDays, holidays);
    if (task.due_at && due.getTime() === task.due_at.getTime()) continue;
    await repo.setTaskDueAt(trx, task.id, due);
    moved++;
  }
  return moved;
}

/** The entry types whose change moves due dates. */
export const DUE_DATE_TYPES = new Set(['publicHolidaysEntry', 'taskTypeSettingsEntry']);
