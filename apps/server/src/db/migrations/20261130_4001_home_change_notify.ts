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

export async function up(db: Kysely<unknown>): Promise<void> {
  // The row expressions come as the trigger's argument and are run against the transition tables
  // of the statement's own kind (an INSERT has no old rows).
  await sql
    .raw(`
    create function notify_home_change() returns trigger language plpgsql as $$
    declare
      keys text[] := '{}';
      part text[];
      rows_table text;
      payload text;
    begin
      if tg_op = 'TRUNCATE' then
        perform pg_notify('${CHANNEL}', '*');
        return null;
      end if;
      foreach rows_table in array case tg_op when 'INSERT' then array['new_rows']
        when 'DELETE' then array['old_rows'] else array['old_rows', 'new_rows'] end loop
        execute format('select array(select distinct k from %I r cross join lateral unnest(array[%s]) k
          where k is not null limit ${MAX_KEYS + 1})', rows_table, tg_argv[0]) into part;
        keys := keys || part;
      end loop;
      keys := array(select distinct k from unnest(keys) k);
      if cardinality(keys) = 0 then return null; end if;
      payload := case when cardinality(keys) > ${MAX_KEYS} then '*' else to_json(keys)::text end;
      perform pg_notify('${CHANNEL}', case when octet_length(payload) > 7900 then '*' else payload end);
      return null;
    end $$;
    ${Object.entries(KEYS)
      .map(([table, keys]) => {
        const run = `for each statement execute function notify_home_change($k$${keys}$k$)`;
        return `
    create trigger ${table}_home_inserted after insert on ${table} referencing new table as new_rows ${run};
    create trigger ${table}_home_updated after update on ${table}
      referencing old table as old_rows new table as new_rows ${run};
    create trigger ${table}_home_deleted after delete on ${table} referencing old table as old_rows ${run};
    create trigger ${table}_home_truncated after truncate on ${table}
      for each statement execute function notify_home_change('');`;
      })
      .join('\n')}
  `)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
    ${Object.keys(KEYS)
      .map((t) =>
        ['inserted', 'updated', 'deleted', 'truncated']
          .map((e) => `drop trigger ${t}_home_${e} on ${t};`)
          .join('\n'),
      )
      .join('\n')}
    drop function notify_home_change();
  `)
    .execute(db);
}
