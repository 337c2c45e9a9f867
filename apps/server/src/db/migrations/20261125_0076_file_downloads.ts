import { type Kysely, sql } from 'kysely';

// Every fetch of a result's file (Download Files, the result's link, the API) is recorded: who, when,
// and whether it was the request's sender side (which marks the result downloaded) or staff.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table file_downloads (
    id bigserial primary key,
    file_key text not null,
    request_number text not null,
    user_id text not null references users (id),
    by_sender boolean not null,
    downloaded_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index file_downloads_request_idx on file_downloads (request_number, downloaded_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table file_downloads`.execute(db);
}
