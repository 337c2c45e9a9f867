import { dueAfterBusinessDays } from './businessDays.js';
import { atTimeOfDay } from './inputRules.js';

/**
 * The due instant by a task type's settings: defaultDueDateInBusinessDays after the trigger,
 * skipping weekends and holidays, at the settings' due time of day when one is set (otherwise at
 * the trigger's clock time).
 */
export function dueFromSettings(
  triggeredAt: Date,
  settings: { defaultDueDateInBusinessDays?: number; dueTimeOfDay?: string } | undefined | null,
  holidays: readonly string[],
  fallbackDays = 5,
): Date {
  const days = settings?.defaultDueDateInBusinessDays ?? fallbackDays;
  const due = dueAfterBusinessDays(triggeredAt, days, holidays);
  return settings?.dueTimeOfDay ? atTimeOfDay(due, settings.dueTimeOfDay) : due;
}
