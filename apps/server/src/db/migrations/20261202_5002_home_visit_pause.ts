import { type Kysely, sql } from 'kysely';

// The home page's "Changed since your last visit" (issue 33 item 11): a visit is the user's first
// view after a pause of 30 minutes, not a session's first load, so a reload, a second browser or a
// new sign-in in the middle of work keep the list. The user's last view of the page is kept for it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table home_visits add column last_view_at timestamptz`.execute(db);
  await sql`update home_visits set last_view_at = visit_started_at`.execute(db);
  await sql`alter table home_visits alter column last_view_at set not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table home_visits drop column last_view_at`.execute(db);
}
