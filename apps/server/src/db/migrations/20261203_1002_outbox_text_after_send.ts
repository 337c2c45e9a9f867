import { type Kysely, sql } from 'kysely';

// A mail that carries a secret (the recipient's passcode, issue 34) keeps it only while it waits to
// go out: text_after_send replaces its text (and drops its html) once the SMTP server took it, so a
// copy of the database taken later holds no passcode. Without SMTP_URL the outbox is where mail is
// read, so nothing is replaced there.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table mail_outbox add column text_after_send text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table mail_outbox drop column text_after_send`.execute(db);
}
