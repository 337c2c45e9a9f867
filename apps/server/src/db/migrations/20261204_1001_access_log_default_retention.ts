import { type Kysely, sql } from 'kysely';

// The access log's default partition under retention (issue 36). An entry lands in the default
// partition only when its month has no partition of its own (the daily job fell more than three
// months behind, or an entry was written for another time); such a month is never made afterwards
// (access_log_ensure_months), so those entries would have outlived every retention. Entries cannot
// be deleted (the append-only trigger), so the default partition is replaced as a whole: when it
// holds entries before the cutoff, it is detached and set aside, a new empty default takes its
// place (with its TRUNCATE trigger; the row triggers and indexes come from the parent), the set-aside
// entries at or after the cutoff go back into the log with their ids, and the old table is dropped.
// The run records it as 'access_log_default'. This holds the log's lock for as long as the entries
// kept are copied: the default is normally empty, and lock_timeout (5 s) makes a run give up rather
// than hold up the log's writes (which queue in the instances meanwhile).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function access_log_drop_months_before(cutoff timestamptz) returns setof text
    language plpgsql as $$
    declare
      part record;
      month date;
    begin
      if cutoff > now() - interval '12 months' then
        raise exception 'the access log keeps at least 12 months: % refused', cutoff
          using errcode = 'insufficient_privilege';
      end if;
      -- Two runs at once (two instances, a retry): the second waits here, then finds the months gone.
      perform pg_advisory_xact_lock(hashtext('access_log_drop_months_before'));
      perform set_config('lock_timeout', '5s', true);
      for part in
        select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'access_log'::regclass and c.relname ~ '^access_log_\\d{4}_\\d{2}$'
        order by c.relname
      loop
        month := to_date(substring(part.name from 12), 'YYYY_MM');
        if (month + interval '1 month')::timestamptz <= cutoff then
          execute format('drop table %I', part.name);
          return next part.name;
        end if;
      end loop;
      if exists (select 1 from access_log_default where at < cutoff) then
        alter table access_log detach partition access_log_default;
        alter table access_log_default rename to access_log_default_expired;
        create table access_log_default partition of access_log default;
        create trigger access_log_no_truncate before truncate on access_log_default
          for each statement execute function access_log_refuse();
        insert into access_log overriding system value
          select * from access_log_default_expired where at >= cutoff;
        drop table access_log_default_expired;
        return next 'access_log_default';
      end if;
    end $$`.execute(db);
}

export async function down(): Promise<void> {
  // Left as it is: the function of 20261203_3001 did the same minus the default partition, and a
  // schema rolled back to before this migration runs with this one alike.
}
