import { type Kysely, sql } from 'kysely';

// Every outgoing mail about a request names it (mail_outbox.request_number), whatever sent it: an
// issued request, an autoReminder, a result delivery, a workflow mail, a remittance advice. Two
// things hang on it: a mail that fails for good gives its request an exception task, and a reply to
// it is matched to its request by its Message-ID (kept on the row once sent; looked up through
// mail_outbox_message_id_idx of migration 0012). Rows written before this migration get the request
// of their correspondence (issued requests) or of their reminder's followUp task.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('request_number', 'text').execute();
  await sql`
    update mail_outbox o set request_number = c.request_number
    from correspondence c where c.mail_outbox_id = o.id`.execute(db);
  await sql`
    update mail_outbox o set request_number = t.request_number
    from workflow_reminders w join tasks t on t.id = w.task_id
    where w.mail_outbox_id = o.id and o.request_number is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('request_number').execute();
}
