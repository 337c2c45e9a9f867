import { type Kysely, sql } from 'kysely';

// Requests and everything hanging off them: drafts of the wizard, correspondence (notes, issued
// letters, messages), results and invoices. Sized for 1,000,000 requests: every list is read through
// an index on (request_number, ...) and the find-requests search uses a GIN full-text index.
// Applicant, recipient and content are kept as JSON documents (the recipient as the snapshot of the
// version chosen), with the few fields that are searched or sorted on copied into columns.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table requests (
      request_number text primary key,
      scope text not null,
      status text not null default 'submitted' check (status in ('submitted', 'open', 'closed')),
      submitted_on_behalf_of text references users (id),
      reference_number text,
      external_user_references text[] not null default '{}',
      applicant jsonb not null,
      applicant_name text not null,
      applicant_date_of_birth date,
      recipient jsonb not null,
      recipient_id bigint,
      recipient_name text not null,
      content jsonb not null,
      tags jsonb not null default '{}',
      submitted_at timestamptz not null default now(),
      submitted_by text references users (id),
      issued_at timestamptz,
      issue_method text,
      closed_at timestamptz,
      closed_by text references users (id),
      last_updated_at timestamptz not null default now(),
      last_updated_by text references users (id),
      last_activity_at timestamptz not null default now(),
      version integer not null default 1,
      search tsvector generated always as (
        to_tsvector('simple',
          request_number || ' ' || applicant_name || ' ' || recipient_name || ' ' ||
          coalesce(reference_number, '') || ' ' ||
          coalesce(applicant ->> 'reference1', '') || ' ' || coalesce(applicant ->> 'reference2', '') || ' ' ||
          coalesce(applicant ->> 'email', '') || ' ' || coalesce(recipient ->> 'email', ''))
      ) stored
    )`.execute(db);
  await sql`create index requests_scope_submitted_idx on requests (scope text_pattern_ops, submitted_at desc)`.execute(
    db,
  );
  await sql`create index requests_submitted_idx on requests (submitted_at desc)`.execute(db);
  await sql`create index requests_open_idx on requests (status, submitted_at) where status <> 'closed'`.execute(
    db,
  );
  await sql`create index requests_closed_idx on requests (closed_at) where closed_at is not null`.execute(db);
  await sql`create index requests_search_idx on requests using gin (search)`.execute(db);
  await sql`create index requests_applicant_name_trgm on requests using gin (lower(applicant_name) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index requests_recipient_name_trgm on requests using gin (lower(recipient_name) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index requests_external_refs_idx on requests using gin (external_user_references)`.execute(
    db,
  );
  await sql`create index requests_on_behalf_idx on requests (submitted_on_behalf_of) where submitted_on_behalf_of is not null`.execute(
    db,
  );

  await sql`
    create table request_drafts (
      id uuid primary key default gen_random_uuid(),
      user_id text not null references users (id) on delete cascade,
      completed_step integer not null default 0,
      data jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index request_drafts_user_idx on request_drafts (user_id, updated_at desc)`.execute(db);

  await sql`
    create table correspondence (
      id uuid primary key default gen_random_uuid(),
      request_number text not null references requests (request_number),
      kind text not null check (kind in ('note', 'issuedRequest', 'message')),
      is_urgent_note boolean not null default false,
      issue_request_method text,
      from_address jsonb,
      to_address jsonb,
      subject text,
      body jsonb not null,
      attachments jsonb not null default '[]',
      message_id text,
      mail_outbox_id bigint,
      message_delivery_status text,
      created_at timestamptz not null default now(),
      created_by text references users (id),
      updated_at timestamptz,
      updated_by text references users (id)
    )`.execute(db);
  await sql`create index correspondence_request_idx on correspondence (request_number, created_at desc)`.execute(
    db,
  );
  await sql`create index correspondence_message_id_idx on correspondence (message_id) where message_id is not null`.execute(
    db,
  );
  await sql`create index correspondence_outbox_idx on correspondence (mail_outbox_id) where mail_outbox_id is not null`.execute(
    db,
  );

  await sql`
    create table request_results (
      id uuid primary key default gen_random_uuid(),
      request_number text not null references requests (request_number),
      file_key text not null,
      tags jsonb not null default '{}',
      item_types jsonb not null default '[]',
      created_at timestamptz not null default now(),
      created_by text references users (id),
      quality_assured_at timestamptz,
      quality_assured_by text references users (id),
      quality_assurance_skipped boolean not null default false,
      downloaded_at timestamptz,
      downloaded_by text references users (id),
      discarded_at timestamptz,
      discarded_by text references users (id)
    )`.execute(db);
  await sql`create index request_results_request_idx on request_results (request_number, created_at)`.execute(
    db,
  );
  await sql`create index request_results_downloadable_idx on request_results (quality_assured_at desc)
    where quality_assured_at is not null and downloaded_at is null and discarded_at is null`.execute(db);

  await sql`
    create table request_invoices (
      id uuid primary key default gen_random_uuid(),
      request_number text not null references requests (request_number),
      file_key text not null,
      tags jsonb not null default '{}',
      notice text,
      foreign_reference jsonb,
      amount bigint,
      amount_exclusive_tax bigint,
      tax bigint,
      currency text,
      created_at timestamptz not null default now(),
      created_by text references users (id),
      paid_at timestamptz,
      paid_by text references users (id),
      payment jsonb,
      payment_confirmed_at timestamptz,
      remittance_advice_key text,
      discarded_at timestamptz,
      discarded_by text references users (id)
    )`.execute(db);
  await sql`create index request_invoices_request_idx on request_invoices (request_number, created_at)`.execute(
    db,
  );
  await sql`create index request_invoices_paid_idx on request_invoices (paid_at) where paid_at is not null`.execute(
    db,
  );

  await sql`create index tasks_request_open_idx on tasks (request_number, type) where completed_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'request_invoices',
    'request_results',
    'correspondence',
    'request_drafts',
    'requests',
  ]) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
  await sql`drop index if exists tasks_request_open_idx`.execute(db);
}
