import { type Kysely, sql } from 'kysely';

// Every instance keeps each session's home page for a while (features/home/cache.ts) instead of
// reading it on every load. A write to any table the page is read from must reach every instance:
// these statement triggers send NOTIFY dossier_home in the writing transaction (delivered when it
// commits, once per transaction however many statements), for every write path there is or will be.

const CHANNEL = 'dossier_home';

/** What the home page reads (features/home/repository.ts); its cache names the same. */
const TABLES = [
  'tasks',
  'requests',
  'events',
  'notifications',
  'mail_outbox',
  'inbox_messages',
  'inbox_message_links',
  'home_visits',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
    create function notify_home_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${CHANNEL}', '');
      return null;
    end $$;
    ${TABLES.map(
      (t) => `create trigger ${t}_home_changed after insert or update or delete or truncate on ${t}
      for each statement execute function notify_home_change();`,
    ).join('\n')}
  `)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
    ${TABLES.map((t) => `drop trigger ${t}_home_changed on ${t};`).join('\n')}
    drop function notify_home_change();
  `)
    .execute(db);
}
