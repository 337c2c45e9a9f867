import { ACCESS_PAGE_SIZE, type AccessCursor } from '@dossier/core';
import { type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import { scopeAtOrUnder } from '../../db/scopes.js';

// The access log of one request, newest first: read through access_log_request_idx
// (request_number, at desc) on each month's partition, merged by time. A read of a request cannot
// predate its submission, nor lie in the future: bounding `at` by both (as parameters, so the
// planner prunes the months outside them before planning them) spares planning and probing the
// other months, which dominated the query at 100,000,000 entries over three years. A day either
// side covers clocks that differ between instances and the database.

const DAY_MS = 24 * 60 * 60 * 1000;

export async function listRequestAccess(
  db: DbOrTrx,
  request: { requestNumber: string; submittedAt: Date },
  page: { pageOffset: number; before?: AccessCursor | undefined },
  now: Date = new Date(),
) {
  const { before } = page;
  // A later page ends at its cursor: the months after it are pruned too.
  // (The cursor's millisecond, one up: the exact comparison below is to the microsecond.)
  const upTo = before ? new Date(before.at.getTime() + 1) : new Date(now.getTime() + DAY_MS);
  let query = db
    .selectFrom('access_log as a')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('files as f', 'f.key', 'a.file_key')
    // The log keeps a recipient access's id as text (a reader of any kind); the access's is a uuid.
    .leftJoin('recipient_accesses as ra', (j) => j.on(sql<SqlBool>`ra.id::text = a.recipient_access_id`))
    .select([
      'ra.sent_to as recipient_sent_to',
      'a.id',
      'a.at',
      sql<string>`to_char(a.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('exact_at'),
      'a.user_id',
      'a.api_client',
      'a.recipient_access_id',
      'a.what',
      'a.via',
      'a.file_key',
      'a.address',
      'u.name as user_name',
      'f.name as file_name',
    ])
    .where('a.request_number', '=', request.requestNumber)
    .where('a.at', '>=', new Date(request.submittedAt.getTime() - DAY_MS))
    .where('a.at', '<', upTo);
  if (before)
    query = query.where(sql<SqlBool>`(a.at, a.id) < (${before.exactAt}::timestamptz, ${before.id}::bigint)`);
  return query
    .orderBy('a.at', 'desc')
    .orderBy('a.id', 'desc')
    .offset(before ? 0 : page.pageOffset)
    .limit(ACCESS_PAGE_SIZE + 1)
    .execute();
}

export interface DisclosureRow {
  at: Date;
  how: 'download' | 'api' | 'mail';
  to_whom: string | null;
  request_number: string;
  what: string | null;
}

/**
 * The accounting of disclosures of a request's applicant (the same name and date of birth on every
 * request of the given scopes): which results and files left Dossier, to whom and when. Downloads by the sender
 * side (file_downloads), files read through the public API (the access log) and mail sent with
 * attachments (the outbox), oldest first.
 */
export async function listDisclosures(
  db: DbOrTrx,
  requestNumber: string,
  scopes: readonly string[],
): Promise<DisclosureRow[]> {
  const within = scopes.includes('/')
    ? sql<SqlBool>`true`
    : scopes.length === 0
      ? sql<SqlBool>`false`
      : sql<SqlBool>`(${sql.join(
          scopes.map((s) => scopeAtOrUnder(sql.ref('r.scope'), s)),
          sql` or `,
        )})`;
  const { rows } = await sql<DisclosureRow>`
    with same as (
      select r.request_number from requests r join requests one on one.request_number = ${requestNumber}
      where r.applicant_name = one.applicant_name
        and r.applicant_date_of_birth is not distinct from one.applicant_date_of_birth and ${within}
    )
    select d.downloaded_at as at, 'download' as how, coalesce(u.name, d.user_id) as to_whom,
      d.request_number, f.name as what
      from file_downloads d join same s on s.request_number = d.request_number
        left join users u on u.id = d.user_id left join files f on f.key = d.file_key
      -- An API key's reads (its service user, 'api:…') are the access log's, which has every file.
      where d.by_sender and d.user_id not like 'api:%'
    union all
    select a.at, 'api', coalesce(u.name, a.api_client), a.request_number, coalesce(f.name, a.file_key)
      from access_log a join same s on s.request_number = a.request_number
        left join users u on u.id = a.api_client left join files f on f.key = a.file_key
      where a.via = 'api' and a.what = 'file'
    union all
    select m.sent_at, 'mail', m."to", m.request_number,
      (select string_agg(x ->> 'name', ', ') from jsonb_array_elements(m.attachments) x)
      from mail_outbox m join same s on s.request_number = m.request_number
      where m.sent_at is not null and jsonb_array_length(m.attachments) > 0
    order by 1`.execute(db);
  return rows;
}
