import { type Kysely, sql } from 'kysely';

// The recipient's link and passcode, sealed (issue 34): AES-256-GCM under RECIPIENT_LINK_KEY, a key
// held outside the database, with the access's id as associated data, so a later mail (the
// automatic reminder) can print the link again. The hashes stay the only thing a link or a passcode
// is checked against; without the key the sealed value is of no use. Accesses made before this have
// none (null) and keep the reminders' wording without the link.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table recipient_accesses add column sealed text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table recipient_accesses drop column sealed`.execute(db);
}
