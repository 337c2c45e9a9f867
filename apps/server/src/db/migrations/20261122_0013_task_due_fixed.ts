import { type Kysely, sql } from 'kysely';

// A due date a person chose when adding a task is theirs: recomputing due dates after the holidays
// or task type settings change must leave it alone. Workflow tasks keep due_fixed = false.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tasks add column due_fixed boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tasks drop column due_fixed`.execute(db);
}
