import { type Kysely, sql } from 'kysely';

// Outgoing mail can carry files: each attachment names a stored file (files.key) that the sender
// reads from file storage when it sends, so the outbox row stays small. An issued request threads
// replies through the Message-ID chosen when the mail is queued, so message_id may be set before
// sending and is looked up by the reply matcher.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mail_outbox')
    .addColumn('attachments', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await sql`create index mail_outbox_message_id_idx on mail_outbox (message_id) where message_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index mail_outbox_message_id_idx`.execute(db);
  await db.schema.alterTable('mail_outbox').dropColumn('attachments').execute();
}
