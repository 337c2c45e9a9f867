import { type Kysely, sql } from 'kysely';

// The access log's own retention (issue 36): whole months leave it, never single entries. The
// daily retention run calls access_log_drop_months_before(cutoff), which drops each month's
// partition that lies entirely before the cutoff and answers their names. The application connects
// as the owner of its tables, so the database cannot refuse it DDL (a DROP of a month, like
// disabling a trigger, is the owner's right); what it can do is keep this function, the one path
// the application takes, from dropping anything recent: it refuses a cutoff later than a year ago
// (the shortest retention the configuration takes), and never drops the default partition (whose
// rows may be of any month). UPDATE, DELETE and TRUNCATE stay refused for every connection
// (migration 20261202_7001). lock_timeout keeps a DROP waiting for a long read of the log from
// holding up every write behind it: the run fails and the next day's tries again.
//
// A run records the months it dropped (retention_runs.access_log_months).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function access_log_drop_months_before(cutoff timestamptz) returns setof text
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
    end $$`.execute(db);
  await sql`alter table retention_runs add column access_log_months text[] not null default '{}'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table retention_runs drop column access_log_months`.execute(db);
  await sql`drop function if exists access_log_drop_months_before(timestamptz)`.execute(db);
}
