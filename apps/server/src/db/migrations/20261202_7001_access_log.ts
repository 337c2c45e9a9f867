import { type Kysely, sql } from 'kysely';

// The access log (issue 36): every read of a request's personal data, one row each: who (a user, an
// API client, or a recipient's access once the portal has them), when, what (the request, one of its
// parts, a file, an export), how (page, API, export) and from where. It is append-only: a trigger
// refuses UPDATE, DELETE and TRUNCATE for every connection, the owner's and a superuser's included,
// since the application connects as the owner and privileges alone would not stop it. Retention
// drops whole months (DROP TABLE of a partition), which no row trigger sees, and is its own work.
//
// Monthly range partitions on the time: the per-request query reads a few partitions' indexes, old
// months leave as a whole. access_log_ensure_months(from, to) creates the months of a span that are
// missing (with the triggers each partition needs of its own); this migration covers the last 13
// months and the next 3, the daily job keeps three months ahead, and a default partition takes
// whatever falls outside, so an insert never fails for want of a month.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table access_log (
    id bigint generated always as identity,
    at timestamptz not null default now(),
    user_id text,
    api_client text,
    recipient_access_id text,
    request_number text,
    what text not null check (what in ('request', 'history', 'preview', 'file', 'export')),
    via text not null check (via in ('page', 'api', 'export')),
    file_key text,
    detail jsonb,
    address inet,
    check (user_id is not null or api_client is not null or recipient_access_id is not null)
  ) partition by range (at)`.execute(db);
  await sql`create index access_log_request_idx on access_log (request_number, at desc)
    where request_number is not null`.execute(db);
  await sql`create index access_log_user_idx on access_log (user_id, at desc) where user_id is not null`.execute(
    db,
  );

  await sql`create function access_log_refuse() returns trigger language plpgsql as $$
    begin
      raise exception 'the access log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  // Row triggers of a partitioned table are cloned to its partitions; TRUNCATE triggers are not, so
  // every partition gets its own (access_log_ensure_months).
  await sql`create trigger access_log_append_only before update or delete on access_log
    for each row execute function access_log_refuse()`.execute(db);
  await sql`create trigger access_log_no_truncate before truncate on access_log
    for each statement execute function access_log_refuse()`.execute(db);

  await sql`create function access_log_ensure_months(from_month date, to_month date) returns integer
    language plpgsql as $$
    declare
      m date := date_trunc('month', from_month)::date;
      made integer := 0;
      name text;
    begin
      while m <= to_month loop
        name := 'access_log_' || to_char(m, 'YYYY_MM');
        -- A month whose rows already went to the default partition stays there (creating it would
        -- fail); the per-request index covers the default partition too.
        if to_regclass(name) is null and not exists (select 1 from access_log_default
            where at >= m and at < m + interval '1 month') then
          execute format('create table %I partition of access_log for values from (%L) to (%L)',
            name, m::timestamptz, (m + interval '1 month')::timestamptz);
          execute format('create trigger access_log_no_truncate before truncate on %I
            for each statement execute function access_log_refuse()', name);
          made := made + 1;
        end if;
        m := (m + interval '1 month')::date;
      end loop;
      return made;
    end $$`.execute(db);
  await sql`create table access_log_default partition of access_log default`.execute(db);
  await sql`create trigger access_log_no_truncate before truncate on access_log_default
    for each statement execute function access_log_refuse()`.execute(db);
  await sql`select access_log_ensure_months((now() - interval '13 months')::date, (now() + interval '3 months')::date)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists access_log`.execute(db);
  await sql`drop function if exists access_log_ensure_months(date, date)`.execute(db);
  await sql`drop function if exists access_log_refuse()`.execute(db);
}
