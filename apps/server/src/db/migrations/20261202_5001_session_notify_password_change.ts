import { type Kysely, sql } from 'kysely';

// A session's actor now carries whether its user must change the password (an open session is sent
// to the change-password page once an administrator asks for it), so setting that flag must reach
// every instance's session cache as the other columns of the actor do.

const USER_COLUMNS = ['name', 'email', 'scope', 'language', 'country', 'disabled', 'password_must_change'];
const OLD_COLUMNS = ['name', 'email', 'scope', 'language', 'country', 'disabled'];

const trigger = (columns: string[]) => `
  drop trigger users_changed on users;
  create trigger users_changed after update on users for each row
    when ((${columns.map((c) => `old.${c}`).join(', ')}) is distinct from (${columns.map((c) => `new.${c}`).join(', ')}))
    execute function notify_session_change();
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(trigger(USER_COLUMNS)).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(trigger(OLD_COLUMNS)).execute(db);
}
