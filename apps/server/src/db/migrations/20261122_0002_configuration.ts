import { type Kysely, sql } from 'kysely';

// Hierarchical configuration: one configuration per scope path, each a tree of typed entries. The
// configuration row is the tree's root entry (id 'c'); entries are matched across configurations
// by id, so the effective entry for a scope is the nearest one walking from the scope up to '/'.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('configurations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('scope_path', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_disabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'text')
    .execute();

  await db.schema
    .createTable('configuration_entries')
    .addColumn('configuration_id', 'text', (c) =>
      c.notNull().references('configurations.id').onDelete('cascade'),
    )
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_disabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'text')
    .addPrimaryKeyConstraint('configuration_entries_pkey', ['configuration_id', 'id'])
    .execute();
  await sql`create index configuration_entries_type_idx on configuration_entries (type)`.execute(db);
  await sql`create index configuration_entries_parent_idx on configuration_entries (configuration_id, parent_id)`.execute(
    db,
  );

  // Secrets that belong to an entry but never travel with it (the webhook signing private key).
  await db.schema
    .createTable('configuration_secrets')
    .addColumn('configuration_id', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('configuration_secrets_pkey', ['configuration_id', 'entry_id'])
    .addForeignKeyConstraint(
      'configuration_secrets_entry_fkey',
      ['configuration_id', 'entry_id'],
      'configuration_entries',
      ['configuration_id', 'id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('configuration_secrets').execute();
  await db.schema.dropTable('configuration_entries').execute();
  await db.schema.dropTable('configurations').execute();
}
