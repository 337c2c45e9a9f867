import { type Kysely, sql } from 'kysely';

// The recipient answers online (issue 34).
// - recipient_accesses: one per issue of a request (email, fax, post, again): the SHA-256 of the
//   link's token (128 random bits and more, so a plain hash suffices) and the argon2id hash of the
//   passcode (8 characters, too few for a plain hash); when it was first opened and last used, when
//   it expires, when it was locked (wrong passcodes) or revoked, and the bytes uploaded through it.
// - recipient_sessions: the session behind a right passcode, bound to its one access; the cookie's
//   SHA-256 only, idle expiry read from last_seen_at.
// - correspondence.via_recipient_page: what the recipient did on the page, marked as such.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table recipient_accesses (
      id uuid primary key default gen_random_uuid(),
      request_number text not null references requests (request_number),
      correspondence_id uuid references correspondence (id) on delete set null,
      token_hash text not null unique,
      passcode_hash text not null,
      method text not null,
      sent_to text not null,
      created_by text references users (id),
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      first_opened_at timestamptz,
      last_used_at timestamptz,
      locked_at timestamptz,
      revoked_at timestamptz,
      revoked_by text references users (id),
      uploaded_bytes bigint not null default 0
    )`.execute(db);
  await sql`create index recipient_accesses_request_idx on recipient_accesses (request_number, created_at desc)`.execute(
    db,
  );
  await sql`
    create table recipient_sessions (
      id_hash text primary key,
      access_id uuid not null references recipient_accesses (id) on delete cascade,
      ip text,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index recipient_sessions_access_idx on recipient_sessions (access_id)`.execute(db);
  await sql`alter table correspondence add column via_recipient_page boolean not null default false`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table correspondence drop column via_recipient_page`.execute(db);
  await sql`drop table recipient_sessions`.execute(db);
  await sql`drop table recipient_accesses`.execute(db);
}
