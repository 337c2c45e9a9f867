import { type Kysely, sql } from 'kysely';

// The token ids (jti) of public API calls already seen, so a captured token cannot be replayed.
// A token lives at most a few minutes (its exp), so a row is kept only until then and purged after.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_token_ids')
    .addColumn('kid', 'text', (c) => c.notNull())
    .addColumn('jti', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('api_token_ids_pkey', ['kid', 'jti'])
    .execute();
  await db.schema.createIndex('api_token_ids_expires_idx').on('api_token_ids').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_token_ids').execute();
}
