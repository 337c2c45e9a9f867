import { type Kysely, sql } from 'kysely';

// Mail is linked to a request by the number in its subject, and anyone who knows a number can write
// one. A message linked that way from an address that is not the recipient's is marked unverified:
// staff see it with a warning and accept it; the sender side does not see it until then.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table correspondence add column unverified_sender boolean not null default false`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table correspondence drop column unverified_sender`.execute(db);
}
