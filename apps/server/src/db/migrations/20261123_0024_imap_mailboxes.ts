import { type Kysely, sql } from 'kysely';

// Optional IMAP polling of the inbox (issue 6). One row per polled mailbox (server, user and folder,
// never the password): the UIDVALIDITY it was read under and the highest UID already stored. The
// UID is advanced in the transaction that stores the message, so a crash between storing and
// marking it \Seen on the server never stores it twice; a new UIDVALIDITY starts the count again.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table imap_mailboxes (
      mailbox text primary key,
      uid_validity bigint not null,
      last_uid bigint not null default 0,
      polled_at timestamptz,
      last_error text
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('imap_mailboxes').execute();
}
