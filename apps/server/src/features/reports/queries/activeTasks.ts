import type { ReportChart } from '@dossier/core';
import { sql } from 'kysely';
import type { ReportDefinition } from '../definition.js';
import { calendarCte, holidaySetOf, localDate, TIME_ZONE } from './calendar.js';
import { openDayConditions, TASK_OVERDUE_NOW, taskConditions } from './tasksBase.js';

// Active Tasks: the open tasks triggered (or due, filter.date=dueAt) within the dates, per task
// type: how many, how many overdue now, the on-time ratio and how many business days they have been
// open; charted per type, on time against overdue. The summary reads the counts open_task_days
// keeps (migration 20261129_3001); the export lists the tasks themselves.

export const activeTasksReport: ReportDefinition = {
  name: 'activeTasks',
  path: '/reports/tasks/active',
  title: 'Active Tasks',
  needs: [],
  filters: ['date', 'from', 'to', 'scope', 'taskType'],
  columns: [
    { key: 'taskType', kind: 'id' },
    { key: 'active', kind: 'count' },
    { key: 'onTime', kind: 'count' },
    { key: 'overdue', kind: 'count' },
    { key: 'onTimeRatio', kind: 'ratio', numerator: 'onTime', denominator: 'active' },
    { key: 'businessDays', kind: 'average', weightedBy: 'active', unit: 'businessDays' },
  ],
  async summary(ctx, f) {
    const h = ctx.holidays;
    // Open tasks counted per local trigger and due day (open_task_days): a day before today is
    // overdue now, a later one (or none) is not; the tasks due today are read from tasks, where
    // TASK_OVERDUE_NOW decides (a small read of the index on open tasks' due times). Both sides
    // take "today" from the same now(). avg over tasks = sum(n × days) / sum(n), in numeric as avg.
    const today = sql`(now() at time zone ${TIME_ZONE})::date`;
    const { rows } = await sql<Record<string, number | string>>`
      with cal as materialized (${calendarCte(h)}),
      x as (
        select o.type, ${holidaySetOf(h, sql.ref('o.scope'))} as set_id, o.triggered_on as from_d,
          coalesce(o.due_on < ${today}, false) as overdue, o.n
        from open_task_days o
        where o.n <> 0 and (o.due_on is null or o.due_on <> ${today}) and ${openDayConditions(ctx, f)}
        union all
        select t.type, ${holidaySetOf(h, sql.ref('t.scope'))} as set_id,
          ${localDate(sql.ref('t.triggered_at'), h)} as from_d, ${TASK_OVERDUE_NOW} as overdue, 1 as n
        from tasks t
        where t.due_at >= (${today})::timestamp at time zone ${TIME_ZONE}
          and t.due_at < (${today} + 1)::timestamp at time zone ${TIME_ZONE}
          and ${taskConditions(ctx, f, 'active')}
      )
      select x.type as "taskType", sum(x.n)::int as active,
        coalesce(sum(x.n) filter (where not x.overdue), 0)::int as "onTime",
        coalesce(sum(x.n) filter (where x.overdue), 0)::int as overdue,
        (sum(x.n::bigint * greatest(0, c2.n - c1.n))::numeric / sum(x.n)::numeric)::float8 as "businessDays"
      from x
        join cal c1 on c1.set_id = x.set_id and c1.d = x.from_d
        join cal c2 on c2.set_id = x.set_id and c2.d = ${ctx.today}::date
      group by x.type order by x.type`.execute(ctx.db);
    const chart: ReportChart | null =
      rows.length === 0
        ? null
        : {
            title: 'activeByType',
            categories: rows.map((r) => String(r.taskType)),
            series: ['onTime', 'overdue'].map((key) => ({ key, values: rows.map((r) => Number(r[key])) })),
          };
    return { rows, chart };
  },
  exportColumns: [
    { key: 'taskId', header: 'Task Id' },
    { key: 'taskType', header: 'Task Type' },
    { key: 'requestNumber', header: 'Request Number' },
    { key: 'scope', header: 'Scope' },
    { key: 'triggeredAt', header: 'Triggered' },
    { key: 'dueAt', header: 'Due' },
    { key: 'assignedTo', header: 'Assigned To' },
    { key: 'overdue', header: 'Overdue' },
    { key: 'businessDays', header: 'Business Days Open' },
  ],
  exportQuery(ctx, f, limit) {
    const h = ctx.holidays;
    return sql`
      with cal as materialized (${calendarCte(h)}),
      x as (
        select t.id, t.type, t.request_number, t.scope, t.triggered_at, t.due_at, t.assigned_to,
          ${TASK_OVERDUE_NOW} as overdue, ${holidaySetOf(h, sql.ref('t.scope'))} as set_id,
          ${localDate(sql.ref('t.triggered_at'), h)} as from_d
        from tasks t where ${taskConditions(ctx, f, 'active')}
        order by t.triggered_at desc, t.id desc limit ${limit}
      )
      select x.id as "taskId", x.type as "taskType", x.request_number as "requestNumber", x.scope,
        x.triggered_at as "triggeredAt", x.due_at as "dueAt", u.name as "assignedTo",
        case when x.overdue then 'Yes' else 'No' end as overdue, greatest(0, c2.n - c1.n) as "businessDays"
      from x
        join cal c1 on c1.set_id = x.set_id and c1.d = x.from_d
        join cal c2 on c2.set_id = x.set_id and c2.d = ${ctx.today}::date
        left join users u on u.id = x.assigned_to
      order by x.triggered_at desc, x.id desc`;
  },
};
