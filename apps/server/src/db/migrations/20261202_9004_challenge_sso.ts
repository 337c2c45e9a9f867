import type { Kysely } from 'kysely';

// A single sign-on whose provider asked for no second factor waits for the local one in a
// signin_challenges row (issue 35); `sso` keeps the provider's ID token, subject and session id
// (JSON) for the session it becomes, so signing out still signs out at the provider.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('signin_challenges').addColumn('sso', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('signin_challenges').dropColumn('sso').execute();
}
