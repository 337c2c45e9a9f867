import { type Kysely, sql } from 'kysely';

// Every instance keeps the actor of each session it has seen for a few seconds (http/sessionCache.ts)
// instead of reading the session, its user and the user's roles on every request. A change to any of
// them must reach every instance at once: these triggers send NOTIFY dossier_sessions in the writing
// transaction (delivered when it commits), for every write path there is or will be, including
// SCIM, single sign-on and a hand-written UPDATE. Touching a session (moving last_seen_at forward, once
// a minute per session) changes nothing the actor holds and sends nothing.

const CHANNEL = 'dossier_sessions';

/** The users columns the actor is built from (features/auth/repository.ts#findLiveSession). */
const USER_COLUMNS = ['name', 'email', 'scope', 'language', 'country', 'disabled'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
    create function notify_session_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('${CHANNEL}', '');
      return null;
    end $$;

    create trigger sessions_deleted after delete on sessions
      for each statement execute function notify_session_change();
    create trigger sessions_changed after update on sessions for each row
      when (not (new.last_seen_at > old.last_seen_at
                 and (old.user_id, old.expires_at) is not distinct from (new.user_id, new.expires_at)))
      execute function notify_session_change();
    create trigger user_roles_changed after insert or update or delete on user_roles
      for each statement execute function notify_session_change();
    create trigger users_changed after update on users for each row
      when ((${USER_COLUMNS.map((c) => `old.${c}`).join(', ')}) is distinct from (${USER_COLUMNS.map((c) => `new.${c}`).join(', ')}))
      execute function notify_session_change();
    create trigger users_deleted after delete on users
      for each statement execute function notify_session_change();
  `)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
    drop trigger users_deleted on users;
    drop trigger users_changed on users;
    drop trigger user_roles_changed on user_roles;
    drop trigger sessions_changed on sessions;
    drop trigger sessions_deleted on sessions;
    drop function notify_session_change();
  `)
    .execute(db);
}
