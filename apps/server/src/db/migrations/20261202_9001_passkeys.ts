import { type Kysely, sql } from 'kysely';

// Passkeys and security keys (issue 35), WebAuthn through @simplewebauthn/server.
// - second_factors of kind 'passkey' keep their credential: its id (unique, looked up at a
//   passwordless sign-in), public key (COSE, base64url) and transports, and the signature counter,
//   advanced by a conditional UPDATE so a replayed (cloned) counter is refused across instances.
//   Their `secret` is empty: a public key needs no encryption.
// - webauthn_challenges: the random challenge of each ceremony, taken once; with the user it was
//   issued for (none for a passwordless sign-in, where the credential names the user).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('second_factors')
    .addColumn('credential_id', 'text')
    .addColumn('public_key', 'text')
    .addColumn('transports', 'text')
    .addColumn('sign_count', 'bigint')
    .execute();
  await db.schema
    .createIndex('second_factors_credential_idx')
    .on('second_factors')
    .column('credential_id')
    .unique()
    .where(sql.ref('credential_id'), 'is not', null)
    .execute();
  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webauthn_challenges').execute();
  await db.schema.dropIndex('second_factors_credential_idx').execute();
  await db.schema
    .alterTable('second_factors')
    .dropColumn('credential_id')
    .dropColumn('public_key')
    .dropColumn('transports')
    .dropColumn('sign_count')
    .execute();
}
