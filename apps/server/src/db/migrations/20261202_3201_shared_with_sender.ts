import { type Kysely, sql } from 'kysely';

// What the recipient sends in (mail, fax or post scans) is staff's: the sender side sees that it
// arrived, not its body or attachments, until a handler shares it with the sender (issue 32). When
// and by whom it was shared; stopping the share clears both. The request's copies of received
// attachments are classified 'received' from now on (never one of the request's own files for the
// sender side); those of messages linked today are marked here.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table correspondence
    add column shared_with_sender_at timestamptz,
    add column shared_with_sender_by text references users (id)`.execute(db);
  await sql`update files set classification = 'received'
    where owner_type = 'request' and classification is null and created_by is null
      and exists (select 1 from correspondence c cross join lateral jsonb_array_elements(c.attachments) a
        where c.kind = 'message' and c.request_number = files.owner_id and a ->> 'key' = files.key)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table correspondence drop column shared_with_sender_at, drop column shared_with_sender_by`.execute(
    db,
  );
}
