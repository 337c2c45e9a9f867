import { sql } from 'kysely';
import { type ReportDefinition, weeklyChart } from '../definition.js';
import { calendarCte, holidaySetOf, localDate } from './calendar.js';
import { completionDayConditions, TASK_OVERDUE_WHEN_COMPLETED, taskConditions } from './tasksBase.js';

// Completed Tasks: the tasks completed within the dates, per task type: how many, how many on time
// and overdue, the on-time ratio and the business days from trigger to completion; charted per
// week, on time against overdue.

export const completedTasksReport: ReportDefinition = {
  name: 'completedTasks',
  path: '/reports/tasks/completed',
  title: 'Completed Tasks',
  needs: [],
  filters: ['from', 'to', 'scope', 'taskType'],
  columns: [
    { key: 'taskType', kind: 'id' },
    { key: 'completed', kind: 'count' },
    { key: 'onTime', kind: 'count' },
    { key: 'overdue', kind: 'count' },
    { key: 'onTimeRatio', kind: 'ratio', numerator: 'onTime', denominator: 'completed' },
    { key: 'businessDays', kind: 'average', weightedBy: 'completed', unit: 'businessDays' },
  ],
  async summary(ctx, f) {
    const h = ctx.holidays;
    const { rows } = await sql<Record<string, unknown>>`
      with cal as materialized (${calendarCte(h)}),
      -- A year is ~500,000 tasks but only some thousands of (type, trigger day, completion day)
      -- combinations, which task_completion_days keeps counted (migration 0026).
      x as (
        select d.type, ${holidaySetOf(h, sql.ref('d.scope'))} as set_id, d.triggered_on as from_d,
          d.completed_on as to_d, d.overdue, sum(d.n) as n
        from task_completion_days d where ${completionDayConditions(ctx, f)}
        group by 1, 2, 3, 4, 5 having sum(d.n) > 0
      )
      select grouping(x.type) as by_week, x.type as "taskType",
        to_char(date_trunc('week', x.to_d), 'YYYY-MM-DD') as week,
        sum(x.n)::int as completed, (coalesce(sum(x.n) filter (where not x.overdue), 0))::int as "onTime",
        (coalesce(sum(x.n) filter (where x.overdue), 0))::int as overdue,
        (sum(x.n * greatest(0, c2.n - c1.n)) / sum(x.n))::float8 as "businessDays"
      from x
        join cal c1 on c1.set_id = x.set_id and c1.d = x.from_d
        join cal c2 on c2.set_id = x.set_id and c2.d = x.to_d
      group by grouping sets ((x.type), (date_trunc('week', x.to_d)))
      order by 1, 2, 3`.execute(ctx.db);
    const table = rows.filter((r) => r.by_week === 0);
    return {
      rows: table.map(({ by_week: _, week: __, ...r }) => r as Record<string, number | string>),
      chart: weeklyChart(
        'completedPerWeek',
        rows.filter((r) => r.by_week === 1),
        ['onTime', 'overdue'],
      ),
    };
  },
  exportColumns: [
    { key: 'taskId', header: 'Task Id' },
    { key: 'taskType', header: 'Task Type' },
    { key: 'requestNumber', header: 'Request Number' },
    { key: 'scope', header: 'Scope' },
    { key: 'triggeredAt', header: 'Triggered' },
    { key: 'dueAt', header: 'Due' },
    { key: 'completedAt', header: 'Completed' },
    { key: 'completedBy', header: 'Completed By' },
    { key: 'overdue', header: 'Overdue' },
    { key: 'businessDays', header: 'Business Days' },
  ],
  exportQuery(ctx, f, limit) {
    const h = ctx.holidays;
    return sql`
      with cal as materialized (${calendarCte(h)}),
      x as (
        select t.id, t.type, t.request_number, t.scope, t.triggered_at, t.due_at, t.completed_at, t.completed_by,
          ${TASK_OVERDUE_WHEN_COMPLETED} as overdue, ${holidaySetOf(h, sql.ref('t.scope'))} as set_id,
          ${localDate(sql.ref('t.triggered_at'), h)} as from_d, ${localDate(sql.ref('t.completed_at'), h)} as to_d
        from tasks t where ${taskConditions(ctx, f, 'completed')}
        order by t.completed_at desc, t.id desc limit ${limit}
      )
      select x.id as "taskId", x.type as "taskType", x.request_number as "requestNumber", x.scope,
        x.triggered_at as "triggeredAt", x.due_at as "dueAt", x.completed_at as "completedAt",
        u.name as "completedBy", case when x.overdue then 'Yes' else 'No' end as overdue,
        greatest(0, c2.n - c1.n) as "businessDays"
      from x
        join cal c1 on c1.set_id = x.set_id and c1.d = x.from_d
        join cal c2 on c2.set_id = x.set_id and c2.d = x.to_d
        left join users u on u.id = x.completed_by
      order by x.completed_at desc, x.id desc`;
  },
};
