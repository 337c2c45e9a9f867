import { type RawBuilder, sql } from 'kysely';
import type { Db } from './database.js';

// A year of the demo's access log (issue 36), read off its history (seedHistory.ts) so the two
// agree: whoever changed a request had its page open a few minutes before; whoever quality-assured
// a result opened its file, and the sender who downloaded one read it then; a manager looks over
// about one closed request in four a day or two after it closed; and each month a manager exports
// the Open Requests report (one entry, its filter and row count). Addresses are of the documentation
// ranges (RFC 5737), one per person. The demo's live requests (seedProgress.ts, worked today) go
// through the app, which logs their reads itself, so only what happened before today is made
// here. Minutes and picks follow from the ids, so a run repeats.

export async function seedDemoAccessLog(db: Db): Promise<void> {
  const address = (user: RawBuilder<unknown>) =>
    sql`('203.0.113.' || (1 + abs(hashtext(${user})) % 250))::inet`;
  await sql`insert into access_log (at, user_id, request_number, what, via, file_key, address)
    select at, user_id, request_number, what, via, file_key, address from (
      select e.created_at - make_interval(mins => 1 + abs(hashtext(e.id::text)) % 9) as at, e.actor as user_id,
        e.aggregate_id as request_number, 'request' as what, 'page' as via, null as file_key,
        ${address(sql`e.actor`)} as address
        from events e join users u on u.id = e.actor
       where e.aggregate_type = 'request' and e.created_at > now() - interval '13 months'
         and e.created_at < now() - interval '1 day'
      union all
      select r.quality_assured_at - interval '4 minutes', r.quality_assured_by, r.request_number, 'file', 'page',
        r.file_key, ${address(sql`r.quality_assured_by`)}
        from request_results r join users u on u.id = r.quality_assured_by
       where r.quality_assured_at > now() - interval '13 months' and r.quality_assured_at < now() - interval '1 day'
      union all
      select r.downloaded_at, r.downloaded_by, r.request_number, 'file', 'page', r.file_key,
        ${address(sql`r.downloaded_by`)}
        from request_results r join users u on u.id = r.downloaded_by
       where r.downloaded_at > now() - interval '13 months' and r.downloaded_at < now() - interval '1 day'
      union all
      select q.closed_at + make_interval(hours => 20 + abs(hashtext(q.request_number)) % 30), 'manager',
        q.request_number, 'request', 'page', null, ${address(sql`'manager'`)}
        from requests q
       where q.closed_at > now() - interval '13 months' and abs(hashtext(q.request_number)) % 4 = 0
         and q.closed_at < now() - interval '3 days'
    ) entries
    order by at`.execute(db);
  await sql`insert into access_log (at, user_id, what, via, detail, address)
    select m + interval '3 days 9 hours', 'manager', 'export', 'export',
      jsonb_build_object('report', 'openRequests', 'filter', '{}'::jsonb, 'rows',
        (select count(*) from requests q where q.submitted_at < m + interval '3 days'
           and (q.closed_at is null or q.closed_at > m + interval '3 days'))),
      ${address(sql`'manager'`)}
      from generate_series(date_trunc('month', now() - interval '11 months'), date_trunc('month', now() - interval '1 month'),
        interval '1 month') m`.execute(db);
}
