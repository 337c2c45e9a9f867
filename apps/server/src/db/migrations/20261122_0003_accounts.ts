import { type Kysely, sql } from 'kysely';

// Accounts and administration: the mail outbox (a later mail service sends it), one-time account
// tokens (email confirmation), recipients with a row per saved version, payees, and the indexes
// behind the user, recipient and payee searches (trigram indexes for "contains" matches).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('to', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .execute();
  await sql`create index mail_outbox_unsent_idx on mail_outbox (id) where sent_at is null`.execute(db);

  await db.schema
    .createTable('account_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey()) // SHA-256 of the token sent by mail
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('ip', 'text') // the address that asked for it (registrations are limited per address)
    .execute();
  await db.schema.createIndex('account_tokens_user_idx').on('account_tokens').column('user_id').execute();
  await sql`create index account_tokens_ip_idx on account_tokens (ip, created_at) where ip is not null`.execute(
    db,
  );

  // User search: name, phone and email contain the term; scope by prefix (users_scope_idx exists);
  // external references exactly.
  await sql`create index users_name_trgm on users using gin (lower(name) gin_trgm_ops)`.execute(db);
  await sql`create index users_email_trgm on users using gin (lower(email) gin_trgm_ops)`.execute(db);
  await sql`create index users_phone_trgm on users using gin (phone gin_trgm_ops)`.execute(db);
  await sql`create index user_roles_reference_idx on user_roles (lower(external_reference)) where external_reference is not null`.execute(
    db,
  );
  await sql`create index user_roles_user_idx on user_roles (user_id)`.execute(db);

  await db.schema
    .createTable('recipients')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('disabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('fax', 'text')
    .addColumn('email', 'text')
    .addColumn('web_site_url', 'text')
    .addColumn('street_address', 'text')
    .addColumn('postal_address', 'text')
    .addColumn('country', 'text')
    .addColumn('notes', 'text')
    .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('attachments', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('contacts', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'text')
    .execute();
  await sql`create index recipients_name_trgm on recipients using gin (lower(name) gin_trgm_ops)`.execute(db);
  await sql`create index recipients_phone_trgm on recipients using gin (phone gin_trgm_ops)`.execute(db);
  await sql`create index recipients_email_trgm on recipients using gin (lower(coalesce(email, '')) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index recipients_address_trgm on recipients using gin (lower(coalesce(street_address, '') || ' ' || coalesce(postal_address, '')) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index recipients_order_idx on recipients (lower(name), id)`.execute(db);

  // Every saved version, whole: a request keeps (recipient_id, version) of the copy it was issued to.
  await db.schema
    .createTable('recipient_versions')
    .addColumn('recipient_id', 'bigint', (c) => c.notNull().references('recipients.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'text')
    .addPrimaryKeyConstraint('recipient_versions_pkey', ['recipient_id', 'version'])
    .execute();

  await db.schema
    .createTable('payees')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('disabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('reference_number', 'text')
    .addColumn('email', 'text')
    .addColumn('bank_account', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('foreign_reference_label', 'text')
    .addColumn('foreign_reference_url', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'text')
    .execute();
  await sql`create index payees_name_trgm on payees using gin (lower(name) gin_trgm_ops)`.execute(db);
  await sql`create index payees_email_trgm on payees using gin (lower(coalesce(email, '')) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index payees_reference_idx on payees (lower(reference_number) text_pattern_ops)`.execute(
    db,
  );
  await sql`create index payees_bank_account_idx on payees (bank_account text_pattern_ops)`.execute(db);
  await sql`create index payees_order_idx on payees (lower(name), id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['payees', 'recipient_versions', 'recipients', 'account_tokens', 'mail_outbox']) {
    await db.schema.dropTable(table).execute();
  }
  for (const index of [
    'users_name_trgm',
    'users_email_trgm',
    'users_phone_trgm',
    'user_roles_reference_idx',
    'user_roles_user_idx',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
}
