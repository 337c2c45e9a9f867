import { type Kysely, sql } from 'kysely';

// Single sign-on logins in flight: the state sent to the identity provider with its PKCE verifier,
// nonce and where to return. In the database, so the callback may reach any instance.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_logins')
    .addColumn('state', 'text', (c) => c.primaryKey())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('return_url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sso_logins_created_idx').on('sso_logins').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_logins').execute();
}
