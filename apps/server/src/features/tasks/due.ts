import { dueFromSettings, type WorkflowTaskType } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { getPublicHolidays, getTaskTypeSettings } from '../configuration/index.js';

/** Days used when a scope has no settings for a task type (the seed's value for most types). */
export const FALLBACK_DUE_DAYS = 5;

/**
 * The due date of a workflow task (docs/ARCHITECTURE.md "Business days"): the trigger time plus the task type's
 * defaultDueDateInBusinessDays, skipping weekends and the public holidays of the scope. Read in the
 * caller's transaction, so from the database and never from a stale cache.
 */
export async function workflowDueAt(
  trx: DbOrTrx,
  scope: string,
  type: WorkflowTaskType,
  triggeredAt: Date,
): Promise<Date> {
  const [settings, holidays] = await Promise.all([
    getTaskTypeSettings(trx, scope, type),
    getPublicHolidays(trx, scope),
  ]);
  return dueFromSettings(triggeredAt, settings, holidays, FALLBACK_DUE_DAYS);
}
