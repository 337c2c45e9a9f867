import type { ReportChart } from '@dossier/core';
import { sql } from 'kysely';
import { scopesWithPermission } from '../../auth/index.js';
import type { ReportContext, ReportDefinition } from '../definition.js';
import { withinReportScopes, withinScopes } from './access.js';
import { calendarCte, holidaySetOf } from './calendar.js';
import { inScope, type ReportFilters } from './filters.js';
import { completionDayConditions } from './tasksBase.js';

// Users: the users the actor may view (user:view in their scope), each with the tasks assigned to
// them and still open, and the tasks they completed within the dates: on time, overdue, the ratio
// and the business days from trigger to completion. Tasks count only inside the actor's report
// scopes, so a user of two organisations shows only the work the actor may see. The scope filter
// chooses the work, not the people: a handler of the whole service who worked an organisation's
// tasks is listed under that organisation with that work only (and the organisation's own users
// are listed even without work there). Charted as tasks completed per user.

function ctes(ctx: ReportContext, f: ReportFilters) {
  const h = ctx.holidays;
  return sql`
    cal as materialized (${calendarCte(h)}),
    u as (
      -- Whether the user holds a confirmed second factor (issue 35): the totals count who does not.
      select id, name, email, scope, disabled,
        exists (select 1 from second_factors sf where sf.user_id = users.id and sf.confirmed_at is not null)
          as has_second_factor
      from users
      where ${withinScopes(scopesWithPermission(ctx.actor, 'user:view'), sql.ref('users.scope'))}
    ),
    -- Counted per day pair in task_completion_days (migration 0026), as in Completed Tasks.
    done_days as (
      select d.completed_by as user_id, ${holidaySetOf(h, sql.ref('d.scope'))} as set_id,
        d.triggered_on as from_d, d.completed_on as to_d, d.overdue, sum(d.n) as n
      from task_completion_days d
      where d.completed_by in (select id from u) and ${completionDayConditions(ctx, f)}
      group by 1, 2, 3, 4, 5 having sum(d.n) > 0
    ),
    done as (
      select d.user_id, sum(d.n)::int as completed,
        (coalesce(sum(d.n) filter (where not d.overdue), 0))::int as on_time,
        (sum(d.n * greatest(0, c2.n - c1.n)) / sum(d.n))::float8 as business_days
      from done_days d
        join cal c1 on c1.set_id = d.set_id and c1.d = d.from_d
        join cal c2 on c2.set_id = d.set_id and c2.d = d.to_d
      group by d.user_id
    ),
    -- Counted per assignee, scope and slot in user_scope_open_tasks (migration 20261129_2001), not
    -- over tasks: a busy handler holds hundreds of thousands of open tasks. Rows counted down to
    -- zero stay, so only sums above zero list a user as holding work.
    open as (
      select o.user_id, sum(o.n)::int as active
      from user_scope_open_tasks o
      where o.user_id in (select id from u)
        and ${withinReportScopes(ctx.actor, sql.ref('o.scope'))}
        and ${inScope(sql.ref('o.scope'), f.scope)}
      group by o.user_id having sum(o.n) > 0
    ),
    z as (
      select u.id, u.name, u.email, u.scope, u.disabled, u.has_second_factor,
        coalesce(open.active, 0) as active,
        coalesce(done.completed, 0) as completed, coalesce(done.on_time, 0) as on_time,
        coalesce(done.completed, 0) - coalesce(done.on_time, 0) as overdue, done.business_days
      from u left join done on done.user_id = u.id left join open on open.user_id = u.id
      where ${
        f.scope
          ? sql`(${inScope(sql.ref('u.scope'), f.scope)} or done.user_id is not null or open.user_id is not null)`
          : sql`true`
      }
    )`;
}

export const usersReport: ReportDefinition = {
  name: 'users',
  path: '/reports/users',
  title: 'Users',
  needs: ['user:view'],
  filters: ['from', 'to', 'scope'],
  columns: [
    { key: 'user', kind: 'id' },
    { key: 'active', kind: 'count' },
    { key: 'completed', kind: 'count' },
    { key: 'onTime', kind: 'count' },
    { key: 'overdue', kind: 'count' },
    { key: 'onTimeRatio', kind: 'ratio', numerator: 'onTime', denominator: 'completed' },
    { key: 'businessDays', kind: 'average', weightedBy: 'completed', unit: 'businessDays' },
    // One each per user, so the totals row counts the users with and without a second factor.
    { key: 'withSecondFactor', kind: 'count' },
    { key: 'withoutSecondFactor', kind: 'count' },
  ],
  async summary(ctx, f) {
    const { rows } = await sql<Record<string, number | string | null>>`
      with ${ctes(ctx, f)}
      select name as "user", id as "userId", active, completed, on_time as "onTime", overdue,
        case when completed = 0 then null else on_time::float8 / completed end as "onTimeRatio",
        business_days as "businessDays",
        case when has_second_factor then 1 else 0 end as "withSecondFactor",
        case when has_second_factor then 0 else 1 end as "withoutSecondFactor"
      from z order by name, id`.execute(ctx.db);
    const workers = rows.filter((r) => Number(r.completed) > 0);
    const chart: ReportChart | null =
      workers.length === 0
        ? null
        : {
            title: 'completedByUser',
            categories: workers.map((r) => String(r.user)),
            series: ['onTime', 'overdue'].map((key) => ({ key, values: workers.map((r) => Number(r[key])) })),
          };
    return { rows, chart };
  },
  exportColumns: [
    { key: 'userId', header: 'User Id' },
    { key: 'name', header: 'Name' },
    { key: 'email', header: 'Email' },
    { key: 'scope', header: 'Scope' },
    { key: 'status', header: 'Status' },
    { key: 'active', header: 'Active Tasks' },
    { key: 'completed', header: 'Completed Tasks' },
    { key: 'onTime', header: 'On Time' },
    { key: 'overdue', header: 'Overdue' },
    { key: 'businessDays', header: 'Average Business Days' },
    { key: 'secondFactor', header: 'Second Factor' },
  ],
  exportQuery(ctx, f, limit) {
    return sql`
      with ${ctes(ctx, f)}
      select id as "userId", name, email, scope, case when disabled then 'Disabled' else 'Active' end as status,
        active, completed, on_time as "onTime", overdue, round(business_days::numeric, 1) as "businessDays",
        case when has_second_factor then 'Yes' else 'No' end as "secondFactor"
      from z order by name, id limit ${limit}`;
  },
};
