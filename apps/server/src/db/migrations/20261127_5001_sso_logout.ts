import { type Kysely, sql } from 'kysely';

// Sign-out everywhere (issue 17): a session begun through single sign-on keeps the provider's ID
// token, to name the session when Dossier asks the provider to end it too (RP-initiated logout), and
// the provider's subject and session id (`sid`), which a back-channel logout token names to end it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions
    add column sso_id_token text,
    add column sso_subject text,
    add column sso_sid text`.execute(db);
  await sql`create index sessions_sso_sid_idx on sessions (sso_sid) where sso_sid is not null`.execute(db);
  await sql`create index sessions_sso_subject_idx on sessions (sso_subject) where sso_subject is not null`.execute(
    db,
  );
}
