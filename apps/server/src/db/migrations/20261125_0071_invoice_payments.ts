import { type Kysely, sql } from 'kysely';

// A payment used to overwrite the invoice it paid (its amounts became the payment's), so the billed
// amount was lost, and there could be one payment only. Payments are now records of their own,
// invoice_payments; the invoice keeps what it was received with.
//
// Existing paid invoices move their payment (request_invoices.payment) into the new table. Their
// stored amounts already are the payment's (the old pay overwrote them) and stay as they are, so
// each such invoice reads exactly as before: billed = paid, balance 0. Its newest remittance
// advice belongs to that one payment.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table invoice_payments (
      id uuid primary key default gen_random_uuid(),
      invoice_id uuid not null references request_invoices (id),
      paid_at timestamptz not null,
      paid_by text references users (id),
      payee_id text,
      payee_name text not null,
      payee_reference_number text,
      payee_email text,
      method text not null,
      amount_exclusive_tax bigint not null,
      tax bigint not null,
      amount bigint not null,
      currency text not null,
      name_on_card text,
      bank_account text,
      invoice_reference_number text,
      remittance_advice_key text
    )`.execute(db);
  // The invoice page lists its payments in order; the report finds payments by date.
  await sql`create index invoice_payments_invoice_idx on invoice_payments (invoice_id, paid_at)`.execute(db);
  await sql`create index invoice_payments_paid_idx on invoice_payments (paid_at)`.execute(db);
  await sql`
    insert into invoice_payments (invoice_id, paid_at, paid_by, payee_id, payee_name,
      payee_reference_number, payee_email, method, amount_exclusive_tax, tax, amount, currency,
      name_on_card, bank_account, invoice_reference_number, remittance_advice_key)
    select i.id, i.paid_at, i.paid_by, i.payment ->> 'payeeId', coalesce(i.payment ->> 'payeeName', ''),
      i.payment ->> 'payeeReferenceNumber', i.payment ->> 'payeeEmail',
      coalesce(i.payment ->> 'method', 'bankTransfer'),
      coalesce((i.payment ->> 'amountExclusiveTax')::bigint, i.amount_exclusive_tax, 0),
      coalesce((i.payment ->> 'tax')::bigint, i.tax, 0),
      coalesce((i.payment ->> 'amount')::bigint, i.amount, 0),
      coalesce(i.payment ->> 'currency', i.currency, 'AUD'),
      i.payment ->> 'nameOnCard', i.payment ->> 'bankAccount', i.payment ->> 'invoiceReferenceNumber',
      i.remittance_advice_key
    from request_invoices i
    where i.paid_at is not null and i.payment is not null`.execute(db);
  await sql`alter table request_invoices drop column payment`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table request_invoices add column payment jsonb`.execute(db);
  // The old shape holds one payment: the newest.
  await sql`
    update request_invoices i set payment = jsonb_build_object(
      'payeeId', p.payee_id, 'payeeName', p.payee_name, 'payeeReferenceNumber', p.payee_reference_number,
      'payeeEmail', p.payee_email, 'method', p.method, 'amountExclusiveTax', p.amount_exclusive_tax,
      'tax', p.tax, 'amount', p.amount, 'currency', p.currency, 'nameOnCard', p.name_on_card,
      'bankAccount', p.bank_account, 'invoiceReferenceNumber', p.invoice_reference_number)
    from (select distinct on (invoice_id) * from invoice_payments order by invoice_id, paid_at desc, id desc) p
    where p.invoice_id = i.id and i.paid_at is not null`.execute(db);
  await sql`drop table invoice_payments`.execute(db);
}
