import { type Kysely, sql } from 'kysely';

// Single sign-on that holds (issue 32).
// - sso_unlinked_subjects: a provider subject an administrator unlinked from its user. Linking by
//   verified email at a first sign-in skips these subjects, so the unlink holds until an
//   administrator (or its provisioning client) links the subject again.
// - sso_logout_tokens: the `jti` of every back-channel logout token taken, kept while the token could
//   still pass its age check, so a replayed token is refused on every instance.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_unlinked_subjects')
    .addColumn('subject', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('unlinked_by', 'text')
    .addColumn('unlinked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('sso_logout_tokens')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('sso_logout_tokens_expires_idx')
    .on('sso_logout_tokens')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_logout_tokens').execute();
  await db.schema.dropTable('sso_unlinked_subjects').execute();
}
