import { type Kysely, sql } from 'kysely';

// Retention and erasure replace the person's name in the notifications about their request
// (issue 36). Those name the request by their target (`/requests/{n}`, or the received mail's
// `/inbox/messages/{id}`); without an index each de-identified request read the whole table.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index notifications_target_idx on notifications (target)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists notifications_target_idx`.execute(db);
}
