import { type Kysely, sql } from 'kysely';

// A user who changes its own email address keeps the old one until the new one is confirmed: the
// new address waits in pending_email. Before this, the change cleared the confirmation and a typo
// locked the user out for good.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column pending_email text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column pending_email`.execute(db);
}
