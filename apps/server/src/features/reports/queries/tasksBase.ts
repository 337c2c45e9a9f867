import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { ReportContext } from '../definition.js';
import { withinReportScopes } from './access.js';
import { inDateRange, inDayRange, inScope, type ReportFilters } from './filters.js';

// The task rows the task reports share: within the actor's report scopes (a task carries its
// request's scope), the chosen scope and task type. A completed task was overdue when the workflow
// recorded it so, or else when it was completed after its due time. On Active Tasks an empty task
// type means every type except Sender Action Required: those wait on the sender, not on
// staff; choosing that type shows them.

export const TASK_OVERDUE_WHEN_COMPLETED = sql<boolean>`coalesce(t.was_overdue, t.completed_at > t.due_at, false)`;
export const TASK_OVERDUE_NOW = sql<boolean>`coalesce(t.due_at < now(), false)`;

export function taskConditions(
  ctx: ReportContext,
  f: ReportFilters,
  state: 'completed' | 'active',
): RawBuilder<SqlBool> {
  const dateColumn =
    state === 'completed'
      ? sql.ref('t.completed_at')
      : f.date === 'dueAt'
        ? sql.ref('t.due_at')
        : sql.ref('t.triggered_at');
  return sql<SqlBool>`${state === 'completed' ? sql`t.completed_at is not null` : sql`t.completed_at is null`}
    and ${withinReportScopes(ctx.actor, sql.ref('t.scope'))}
    and ${inDateRange(dateColumn, f)}
    and ${inScope(sql.ref('t.scope'), f.scope)}
    and ${f.taskType ? sql`t.type = ${f.taskType}` : state === 'active' ? sql`t.type <> 'senderActionRequired'` : sql`true`}`;
}

/**
 * The same rows counted in task_completion_days (migration 0026, alias d): completed tasks within
 * the actor's report scopes, the chosen scope and type, completed within the dates (local days).
 */
export function completionDayConditions(ctx: ReportContext, f: ReportFilters): RawBuilder<SqlBool> {
  return sql<SqlBool>`${withinReportScopes(ctx.actor, sql.ref('d.scope'))}
    and ${inDayRange(sql.ref('d.completed_on'), f)}
    and ${inScope(sql.ref('d.scope'), f.scope)}
    and ${f.taskType ? sql`d.type = ${f.taskType}` : sql`true`}`;
}

/**
 * The open tasks of taskConditions(ctx, f, 'active') counted in open_task_days (migration
 * 20261129_3001, alias o): within the actor's report scopes, the chosen scope and type (every type
 * but Sender Action Required without one), triggered (or due) within the dates (local days; a task
 * without a due time is outside any dueAt bounds, as its null is).
 */
export function openDayConditions(ctx: ReportContext, f: ReportFilters): RawBuilder<SqlBool> {
  const dayColumn = f.date === 'dueAt' ? sql.ref('o.due_on') : sql.ref('o.triggered_on');
  return sql<SqlBool>`${withinReportScopes(ctx.actor, sql.ref('o.scope'))}
    and ${inDayRange(dayColumn, f)}
    and ${inScope(sql.ref('o.scope'), f.scope)}
    and ${f.taskType ? sql`o.type = ${f.taskType}` : sql`o.type <> 'senderActionRequired'`}`;
}
