import { type Kysely, sql } from 'kysely';

// What the recipient sends in (mail, fax or post scans) is staff's: the sender side sees that it
// arrived, not its body or attachments, until a handler shares it with the sender (issue 32). When
// and by whom it was shared; stopping the share clears both.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table correspondence
    add column shared_with_sender_at timestamptz,
    add column shared_with_sender_by text references users (id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table correspondence drop column shared_with_sender_at, drop column shared_with_sender_by`.execute(
    db,
  );
}
