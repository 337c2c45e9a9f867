import { type Kysely, sql } from 'kysely';

// The foundation: users and their roles, sessions, sign-in throttling, notifications, workflow
// tasks as the shell shows them, and the domain event log every later feature writes to.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('alternate_phone', 'text')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('language', 'text')
    .addColumn('address', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('disabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('password_must_change', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('email_confirmed_at', 'timestamptz')
    .addColumn('failed_signins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('external_user_id', 'text')
    .addColumn('ip_range', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index users_email_key on users (lower(email))`.execute(db);
  await sql`create unique index users_external_user_id_key on users (external_user_id) where external_user_id is not null`.execute(
    db,
  );
  await sql`create index users_scope_idx on users (scope text_pattern_ops)`.execute(db);

  await db.schema
    .createTable('user_roles')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('external_reference', 'text')
    .addColumn('scope', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index user_roles_unique on user_roles (user_id, role, coalesce(external_reference, ''), scope)`.execute(
    db,
  );
  await sql`create index user_roles_scope_idx on user_roles (scope text_pattern_ops, role)`.execute(db);

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('signin_failures')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('failed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('signin_failures_ip_idx')
    .on('signin_failures')
    .columns(['ip', 'failed_at'])
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('acknowledged_at', 'timestamptz')
    .execute();
  await sql`create index notifications_user_idx on notifications (user_id, id desc)`.execute(db);
  await sql`create index notifications_active_idx on notifications (user_id, id desc) where acknowledged_at is null`.execute(
    db,
  );

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('request_number', 'text')
    .addColumn('message_id', 'text')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('notice', 'text')
    .addColumn('triggered_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('triggered_by', 'text')
    .addColumn('due_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('completed_by', 'text')
    .addColumn('was_overdue', 'boolean')
    .addColumn('marked_in_progress_at', 'timestamptz')
    .addColumn('marked_in_progress_by', 'text')
    .addColumn('assigned_to', 'text', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await sql`create index tasks_assigned_open_idx on tasks (assigned_to, due_at) where completed_at is null`.execute(
    db,
  );
  await sql`create index tasks_request_idx on tasks (request_number, id) where request_number is not null`.execute(
    db,
  );

  await db.schema
    .createTable('events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('aggregate_type', 'text', (c) => c.notNull())
    .addColumn('aggregate_id', 'text', (c) => c.notNull())
    .addColumn('actor', 'text')
    .addColumn('payload', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('events_aggregate_idx')
    .on('events')
    .columns(['aggregate_type', 'aggregate_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'events',
    'tasks',
    'notifications',
    'signin_failures',
    'sessions',
    'user_roles',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
