import { type Kysely, sql } from 'kysely';

// Incoming mail (issue 6, mail in and the inbox). Every message received is a row of
// inbox_messages, whether it was matched to a request or not: the raw message is kept as a file
// (raw_file_key) so nothing is ever lost, even when it could not be parsed (flag_reason says why).
// Links to requests are rows of inbox_message_links; an unlink keeps the row with unlinked_at, so
// the history of a message stays readable. The inbox search reads through the full-text index
// (search), the sender index and the received_at index.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table inbox_messages (
      id uuid primary key default gen_random_uuid(),
      scope text not null default '/',
      message_id text,
      in_reply_to text,
      "references" text[] not null default '{}',
      from_address jsonb not null default '{}',
      from_email text not null default '',
      to_addresses jsonb not null default '[]',
      subject text not null default '',
      body_text text not null default '',
      body_html text,
      received_at timestamptz not null default now(),
      raw_file_key text not null,
      raw_size bigint not null,
      flag_reason text,
      attachments jsonb not null default '[]',
      search tsvector generated always as (
        to_tsvector('simple', left(coalesce(subject, '') || ' ' || coalesce(from_email, '') || ' ' ||
          coalesce(from_address ->> 'displayName', '') || ' ' || coalesce(body_text, ''), 200000))
      ) stored
    )`.execute(db);
  await sql`create index inbox_messages_received_idx on inbox_messages (received_at desc, id)`.execute(db);
  await sql`create index inbox_messages_from_idx on inbox_messages (lower(from_email) text_pattern_ops, received_at desc)`.execute(
    db,
  );
  await sql`create index inbox_messages_from_trgm on inbox_messages using gin (lower(from_email || ' ' || coalesce(from_address ->> 'displayName', '')) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index inbox_messages_search_idx on inbox_messages using gin (search)`.execute(db);
  await sql`create index inbox_messages_message_id_idx on inbox_messages (message_id) where message_id is not null`.execute(
    db,
  );

  await sql`
    create table inbox_message_links (
      id bigserial primary key,
      message_id uuid not null references inbox_messages (id),
      request_number text not null references requests (request_number),
      correspondence_id uuid,
      linked_at timestamptz not null default now(),
      linked_by text references users (id),
      unlinked_at timestamptz,
      unlinked_by text references users (id)
    )`.execute(db);
  await sql`create index inbox_message_links_message_idx on inbox_message_links (message_id, id)`.execute(db);
  // One live link per message and request.
  await sql`create unique index inbox_message_links_live_idx on inbox_message_links (message_id, request_number)
    where unlinked_at is null`.execute(db);
  await sql`create index inbox_message_links_request_idx on inbox_message_links (request_number)`.execute(db);
  await sql`create index tasks_message_idx on tasks (message_id, id) where message_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists tasks_message_idx`.execute(db);
  await sql`drop table if exists inbox_message_links`.execute(db);
  await sql`drop table if exists inbox_messages`.execute(db);
}
