import { type Kysely, sql } from 'kysely';

// Who is connected, and which request page each live connection shows. Every instance holds only
// its own sockets, so presence lives here: one row per live connection, refreshed by the client's
// 30 s ping; a row not refreshed within the TTL (an instance that died) no longer counts.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('presence')
    .addColumn('connection_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('request_number', 'text')
    .addColumn('seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('presence_request_idx')
    .on('presence')
    .columns(['request_number', 'seen_at'])
    .execute();
  await db.schema.createIndex('presence_user_idx').on('presence').columns(['user_id', 'seen_at']).execute();
  await db.schema.createIndex('presence_seen_idx').on('presence').column('seen_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('presence').execute();
}
