import { type Kysely, sql } from 'kysely';

// Each invoice carries its request's scope, as a task does: the Paid Invoices report groups and
// filters a year of paid invoices (~29,000 on 1,000,000 requests) by scope, and joining them with
// their requests read the whole requests index (412,000 buffers) or looked each one up. Kept by
// triggers, so no writer of invoices has to know: an invoice takes its request's scope when it is
// added (or moved to another request), and a request's invoices follow it to another scope.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table request_invoices add column scope text`.execute(db);
  await sql`update request_invoices i set scope = r.scope from requests r where r.request_number = i.request_number`.execute(
    db,
  );
  await sql`alter table request_invoices alter column scope set not null`.execute(db);
  await sql`create function request_invoices_take_scope() returns trigger language plpgsql as $fn$
    begin
      new.scope := (select r.scope from requests r where r.request_number = new.request_number);
      return new;
    end $fn$`.execute(db);
  await sql`create trigger request_invoices_scope before insert or update of request_number on request_invoices
    for each row execute function request_invoices_take_scope()`.execute(db);
  await sql`create function request_invoices_follow_scope() returns trigger language plpgsql as $fn$
    begin
      update request_invoices set scope = new.scope where request_number = new.request_number;
      return null;
    end $fn$`.execute(db);
  await sql`create trigger request_invoices_follow_scope after update of scope on requests
    for each row when (old.scope is distinct from new.scope) execute function request_invoices_follow_scope()`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists request_invoices_follow_scope on requests`.execute(db);
  await sql`drop function if exists request_invoices_follow_scope()`.execute(db);
  await sql`drop trigger if exists request_invoices_scope on request_invoices`.execute(db);
  await sql`drop function if exists request_invoices_take_scope()`.execute(db);
  await sql`alter table request_invoices drop column if exists scope`.execute(db);
}
