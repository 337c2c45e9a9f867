import { type Kysely, sql } from 'kysely';

// Counted events for rate limits shared by every instance (password reset requests per address;
// later API calls per key): one row per event, counted over a window, purged when old.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('rate_events_key_idx')
    .on('rate_events')
    .columns(['bucket', 'key', 'at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_events').execute();
}
