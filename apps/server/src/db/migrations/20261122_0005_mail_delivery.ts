import { type Kysely, sql } from 'kysely';

// Delivery bookkeeping for the outbox: when to try again after a failure, and the Message-ID the
// SMTP server accepted (replies thread back to it).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mail_outbox')
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('message_id', 'text')
    .addColumn('failed_at', 'timestamptz')
    .execute();
  await sql`drop index mail_outbox_unsent_idx`.execute(db);
  // Wakes the mail sender as soon as a message is committed, whoever wrote it.
  await sql`
    create function mail_outbox_notify() returns trigger language plpgsql as $$
    begin perform pg_notify('mail_outbox', new.id::text); return null; end $$`.execute(db);
  await sql`create trigger mail_outbox_inserted after insert on mail_outbox for each row execute function mail_outbox_notify()`.execute(
    db,
  );
  await sql`create index mail_outbox_due_idx on mail_outbox (next_attempt_at) where sent_at is null and failed_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger mail_outbox_inserted on mail_outbox`.execute(db);
  await sql`drop function mail_outbox_notify()`.execute(db);
  await sql`drop index mail_outbox_due_idx`.execute(db);
  await db.schema
    .alterTable('mail_outbox')
    .dropColumn('next_attempt_at')
    .dropColumn('message_id')
    .dropColumn('failed_at')
    .execute();
  await sql`create index mail_outbox_unsent_idx on mail_outbox (id) where sent_at is null`.execute(db);
}
