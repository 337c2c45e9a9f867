import { type Kysely, sql } from 'kysely';

// Uploaded files and the secrets every instance must share (the key that signs upload URLs).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('files')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('declared_size', 'bigint', (c) => c.notNull())
    .addColumn('size', 'bigint')
    .addColumn('sha256', 'text')
    .addColumn('public_read', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('classification', 'text')
    .addColumn('owner_type', 'text')
    .addColumn('owner_id', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('uploaded_at', 'timestamptz')
    .execute();
  await sql`create index files_owner_idx on files (owner_type, owner_id) where owner_type is not null`.execute(
    db,
  );
  await sql`create index files_pending_idx on files (created_at) where uploaded_at is null`.execute(db);

  await db.schema
    .createTable('app_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('app_secrets').execute();
  await db.schema.dropTable('files').execute();
}
