import { type Kysely, sql } from 'kysely';

// Second factors (issue 35).
// - second_factors: a user's code generators (RFC 6238), the secret encrypted with a key kept in
//   app_secrets; unconfirmed until a first code proves the enrolment; last_used_step refuses a code
//   used again within its time step.
// - recovery_codes: ten one-time codes per user, only their SHA-256 (they are random), used_at once spent.
// - signin_challenges: a password sign-in waiting for its second step; only a hash of the cookie
//   value, short-lived, never a session.
// - sessions.must_enrol: the session of a user whose roles require a second factor and who has none
//   yet; it may do nothing but enrol one.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('second_factors')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('last_used_step', 'bigint')
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('second_factors_user_idx').on('second_factors').column('user_id').execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addPrimaryKeyConstraint('recovery_codes_pk', ['user_id', 'code_hash'])
    .execute();
  await db.schema
    .createTable('signin_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('signin_challenges_user_idx')
    .on('signin_challenges')
    .column('user_id')
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('must_enrol', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('must_enrol').execute();
  await db.schema.dropTable('signin_challenges').execute();
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.dropTable('second_factors').execute();
}
