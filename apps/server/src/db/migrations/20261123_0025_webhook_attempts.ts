import { type Kysely, sql } from 'kysely';

// Every attempt of a webhook delivery with what the receiver answered (status, the start of its
// body, the error, how long it took), not only the last one: the editor lists them under each
// delivery, so an administrator sees a receiver that failed twice before it took the event. The
// delivery row keeps its summary (status, attempts, last answer). The log is kept 30 days
// (deliveries older than that are pruned hourly, their attempts with them); created_at is indexed
// for that. Deliveries made before this migration get their last answer as their one attempt.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_delivery_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('delivery_id', 'bigint', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Null for attempts carried over from before this migration.
    .addColumn('duration_ms', 'integer')
    .addColumn('response_status', 'integer')
    .addColumn('response_excerpt', 'text')
    .addColumn('error', 'text')
    .execute();
  await sql`create index webhook_delivery_attempts_delivery_idx
    on webhook_delivery_attempts (delivery_id, id)`.execute(db);
  await sql`create index webhook_deliveries_created_idx on webhook_deliveries (created_at)`.execute(db);
  await sql`
    insert into webhook_delivery_attempts
      (delivery_id, attempt, attempted_at, response_status, response_excerpt, error)
    select id, attempts, last_attempt_at, response_status, left(response_body, 500), error
    from webhook_deliveries where attempts > 0 and last_attempt_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists webhook_deliveries_created_idx`.execute(db);
  await db.schema.dropTable('webhook_delivery_attempts').execute();
}
