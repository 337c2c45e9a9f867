import { type Kysely, sql } from 'kysely';

// Every instance keeps each session's home page for a while (features/home/cache.ts) instead of
// reading it on every load. A write to any table the page is read from must reach every instance,
// for every write path there is or will be: these statement triggers send NOTIFY dossier_home in the
// writing transaction (delivered when it commits), naming what the statement changed, so that only
// the pages it may change are dropped: `u:<user>` (a task's assignee, an event's actor, a
// notification's or visit's user), `r:<request number>` and `s:<scope>` (a changed request, a
// Sender Action Required task's request, a mail's or inbox message's scope). A statement naming more
// than 300 sends '*', as TRUNCATE does: every page is dropped.

const CHANNEL = 'dossier_home';
const MAX_KEYS = 300;

/** What the home page reads (features/home/repository.ts), and what a changed row `r` names. */
const KEYS: Record<string, string> = {
  tasks: `'u:' || r.assigned_to,
    case when r.type = 'senderActionRequired' then 's:' || r.scope end,
    case when r.type = 'senderActionRequired' then 's:' || r.request_scope end`,
  requests: `'r:' || r.request_number, 's:' || r.scope`,
  events: `'u:' || r.actor`,
  notifications: `'u:' || r.user_id`,
  home_visits: `'u:' || r.user_id`,
  mail_outbox: `'s:' || coalesce(r.scope, '/')`,
  inbox_messages: `'s:' || coalesce(r.scope, '/')`,
  // A link's message gone with it: '/' reaches only pages that see every scope, as its message did.
  inbox_message_links: `'s:' || coalesce((select m.scope from inbox_messages m where m.id = r.message_id), '/')`,
};

/** The keys of the rows of one transition table: at most one past MAX_KEYS, which then sends '*'. */
const keysOf = (rows: string, keys: string) => `array(select distinct k from ${rows} r
  cross join lateral unnest(array[${keys}]) k where k is not null limit ${MAX_KEYS + 1})`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // One function per table, so each statement is planned once per connection; a branch whose
  // transition table the event lacks (an INSERT has no old rows) is never run, so never planned.
  await sql
    .raw(`
    create function notify_home_keys(keys text[]) returns void language plpgsql as $$
    declare payload text;
    begin
      keys := array(select distinct k from unnest(keys) k);
      if cardinality(keys) = 0 then return; end if;
      payload := case when cardinality(keys) > ${MAX_KEYS} then '*' else to_json(keys)::text end;
      perform pg_notify('${CHANNEL}', case when octet_length(payload) > 7900 then '*' else payload end);
    end $$;
    ${Object.entries(KEYS)
      .map(
        ([table, keys]) => `
    create function notify_home_change_${table}() returns trigger language plpgsql as $$
    begin
      if tg_op = 'TRUNCATE' then
        perform pg_notify('${CHANNEL}', '*');
      elsif tg_op = 'INSERT' then
        perform notify_home_keys(${keysOf('new_rows', keys)});
      elsif tg_op = 'DELETE' then
        perform notify_home_keys(${keysOf('old_rows', keys)});
      else
        perform notify_home_keys(${keysOf('old_rows', keys)} || ${keysOf('new_rows', keys)});
      end if;
      return null;
    end $$;
    create trigger ${table}_home_inserted after insert on ${table} referencing new table as new_rows
      for each statement execute function notify_home_change_${table}();
    create trigger ${table}_home_updated after update on ${table}
      referencing old table as old_rows new table as new_rows
      for each statement execute function notify_home_change_${table}();
    create trigger ${table}_home_deleted after delete on ${table} referencing old table as old_rows
      for each statement execute function notify_home_change_${table}();
    create trigger ${table}_home_truncated after truncate on ${table}
      for each statement execute function notify_home_change_${table}();`,
      )
      .join('\n')}
  `)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const drops = Object.keys(KEYS).flatMap((t) => [
    ...['inserted', 'updated', 'deleted', 'truncated'].map((e) => `drop trigger ${t}_home_${e} on ${t};`),
    `drop function notify_home_change_${t}();`,
  ]);
  await sql.raw(`${drops.join('\n')}\ndrop function notify_home_keys(text[]);`).execute(db);
}
