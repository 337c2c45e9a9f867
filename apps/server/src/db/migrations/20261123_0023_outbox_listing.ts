import { type Kysely, sql } from 'kysely';

// The admin outbox page (issue 6). Every outgoing mail belongs to a scope: the scope of the request
// it is about, or of the user an account mail is for; '/' when neither is known, so only
// administrators of the whole service see it. The page lists newest first (by id) with optional
// filters on status and recipient, so each filter has an index that yields rows in id order:
// one partial index per status, (lower(to), id) for an address and (scope, id) for a sub-scope.
// Rows written before this migration get the scope of the request of their correspondence (issued
// requests) or of their reminder's followUp task; anything else stays at '/'.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table mail_outbox add column scope text not null default '/'`.execute(db);
  await sql`
    update mail_outbox o set scope = r.scope
    from correspondence c join requests r on r.request_number = c.request_number
    where c.mail_outbox_id = o.id`.execute(db);
  await sql`
    update mail_outbox o set scope = r.scope
    from workflow_reminders w join tasks t on t.id = w.task_id join requests r on r.request_number = t.request_number
    where w.mail_outbox_id = o.id and o.scope = '/'`.execute(db);
  await sql`create index mail_outbox_waiting_idx on mail_outbox (id) where sent_at is null and failed_at is null`.execute(
    db,
  );
  await sql`create index mail_outbox_sent_idx on mail_outbox (id) where sent_at is not null`.execute(db);
  await sql`create index mail_outbox_failed_idx on mail_outbox (id) where failed_at is not null`.execute(db);
  await sql`create index mail_outbox_to_idx on mail_outbox (lower("to"), id)`.execute(db);
  await sql`create index mail_outbox_scope_idx on mail_outbox (scope text_pattern_ops, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['waiting', 'sent', 'failed', 'to', 'scope'])
    await sql.raw(`drop index if exists mail_outbox_${index}_idx`).execute(db);
  await sql`alter table mail_outbox drop column scope`.execute(db);
}
