import { type Kysely, sql } from 'kysely';

// "Remember this device for 30 days" (issue 35, off unless SIGNIN_REMEMBER_DEVICE): a browser that
// passed the second step may skip it for 30 days. Only the SHA-256 of its cookie is kept; resetting
// or removing the user's second factors forgets every device.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('remembered_devices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('remembered_devices_user_idx')
    .on('remembered_devices')
    .column('user_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('remembered_devices').execute();
}
