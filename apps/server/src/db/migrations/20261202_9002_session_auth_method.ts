import type { Kysely } from 'kysely';

// How each session was authenticated (issue 35): 'password', 'secondFactor' (a password and a code),
// 'passkey' (as the second step or alone) or 'sso'. The history of payments and payee bank details
// records it with the action. Sessions from before say 'password', as they were.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('auth_method', 'text', (c) => c.notNull().defaultTo('password'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('auth_method').execute();
}
