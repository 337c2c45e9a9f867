import { type Kysely, sql } from 'kysely';

// The workflow engine (features/workflow) and task assignment (features/assignment).
// - task_skills: a user is a candidate for a task type only when trained for it and the skill is
//   active (docs/ARCHITECTURE.md "Assignment"). No row means untrained and inactive.
// - events.workflow_pending: the events table is the workflow's outbox. A row is pending until the
//   engine has reacted to it, in the transaction that made the reaction; the partial index keeps
//   finding pending rows cheap however many events there are. Rows older than this migration were
//   written before there was an engine and are not pending.
// - tasks.workflow_key: what a workflow task is about ('result:12', 'invoice:7', 'task:3', ...),
//   unique among open and done tasks, so a rule run twice cannot add a task twice and a later rule
//   finds the task of a result or invoice.
// - workflow_reminders: the days an automatic reminder went out for a task, so it never goes twice
//   on consecutive days.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('task_skills')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('task_type', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) =>
      c.notNull().defaultTo('untrained').check(sql`level in ('untrained', 'trained')`),
    )
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('inactive').check(sql`status in ('inactive', 'active')`),
    )
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('task_skills_pkey', ['user_id', 'task_type'])
    .execute();
  // Candidate lookup goes from the task type to the users able to take it.
  await sql`create index task_skills_ready_idx on task_skills (task_type, user_id) where level = 'trained' and status = 'active'`.execute(
    db,
  );

  await sql`alter table events add column workflow_pending boolean not null default false`.execute(db);
  await sql`alter table events alter column workflow_pending set default true`.execute(db);
  await sql`create index events_workflow_pending_idx on events (id) where workflow_pending`.execute(db);
  // Wakes the engine right after the commit (NOTIFY is delivered then); its sweep is the backstop.
  await sql`create function events_workflow_notify() returns trigger language plpgsql as $$
    begin perform pg_notify('workflow_events', ''); return null; end $$`.execute(db);
  await sql`create trigger events_workflow_inserted after insert on events for each statement execute function events_workflow_notify()`.execute(
    db,
  );

  await sql`alter table tasks add column workflow_key text`.execute(db);
  await sql`create unique index tasks_workflow_key_key on tasks (workflow_key) where workflow_key is not null`.execute(
    db,
  );
  // The reminder sweep looks for open tasks of a type that are due (overdue follow-ups, appointments).
  await sql`create index tasks_open_type_due_idx on tasks (type, due_at) where completed_at is null`.execute(
    db,
  );

  await db.schema
    .createTable('workflow_reminders')
    .addColumn('task_id', 'bigint', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('sent_on', 'date', (c) => c.notNull())
    .addColumn('mail_outbox_id', 'bigint')
    .addPrimaryKeyConstraint('workflow_reminders_pkey', ['task_id', 'sent_on'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('workflow_reminders').execute();
  await sql`drop index tasks_open_type_due_idx`.execute(db);
  await sql`alter table tasks drop column workflow_key`.execute(db);
  await sql`drop trigger events_workflow_inserted on events`.execute(db);
  await sql`drop function events_workflow_notify()`.execute(db);
  await sql`alter table events drop column workflow_pending`.execute(db);
  await db.schema.dropTable('task_skills').execute();
}
