import { type Kysely, sql } from 'kysely';

// An inbox message belongs to the scope of the requests it is linked to (their common scope), else
// to the inbox's, the root. Staff see the messages at or under their scopes only, so replies to one
// organisation's requests are not read by another's; the index serves an organisation's inbox list, newest first.

export async function up(db: Kysely<unknown>): Promise<void> {
  // Linked to requests of one scope: that scope. Of several (rare): the root, seen by root staff
  // only, which errs on the side of telling nobody too much; the next link or unlink refines it.
  await sql`
    update inbox_messages m set scope = coalesce((
      select case when count(distinct r.scope) = 1 then min(r.scope) else '/' end
      from inbox_message_links l
      join requests r on r.request_number = l.request_number
      where l.message_id = m.id and l.unlinked_at is null
    ), '/')`.execute(db);
  await sql`create index inbox_messages_scope_idx on inbox_messages (scope text_pattern_ops, received_at desc, id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index inbox_messages_scope_idx`.execute(db);
}
