import { type Expression, expressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { scopeAtOrUnder } from '../../db/scopes.js';
import type { RequestAccessColumns } from '../requests/index.js';

// All SQL of the home page. Every list is read in the order of an index and stops after a few rows,
// every count stops at a cap, so the page costs the same on a million requests as on ten:
// a user's open tasks through (assigned_to, due_at) of migration 0001, the sender's tasks through
// (type, due_at, id) of 0017, the requests touched through (actor, created_at) of events and the requests
// changed through (last_activity_at) of migration 301, failed mail through its partial index of
// 0023, the inbox newest first through (received_at, id) of 0016.

type Visible = (eb: ReturnType<typeof expressionBuilder<Database, 'requests'>>) => Expression<SqlBool>;

/** A part of the page: a subquery answering one JSON value (timestamps as ISO strings). */
export type Part<T> = RawBuilder<T>;

/** A section the user does not get: null in its column. */
export const NO_PART: Part<null> = sql<null>`null`;

export interface Listed<Row> {
  rows: Row[];
  /** Counted up to cap + 1: more than cap means "cap+". */
  count: number;
}

/**
 * The page in one round trip: every part is a column of one select. Each part reads a few rows
 * through an index, so what a page costs is mostly per statement (parse, plan, protocol), once here.
 */
export async function readParts<P extends Record<string, Part<unknown>>>(
  db: DbOrTrx,
  parts: P,
): Promise<{ [K in keyof P]: P[K] extends Part<infer T> ? T : never }> {
  const columns = Object.entries(parts).map(([key, part]) => sql`${part} as ${sql.id(key)}`);
  const { rows } = await sql<{ [K in keyof P]: P[K] extends Part<infer T> ? T : never }>`
    select ${sql.join(columns)}`.execute(db);
  const [row] = rows;
  if (!row) throw new Error('the home statement answered no row');
  return row;
}

/**
 * The first `limit` rows in order, and how many there are up to `cap + 1`. Counted apart from the
 * rows: the count reads only what the condition needs, so an index covering it (as the assigned
 * tasks' does, migration 20261130_3001) counts without reading a row; only the rows shown are read.
 */
function listedPart<Row>(
  from: RawBuilder<unknown>,
  where: RawBuilder<SqlBool>,
  columns: RawBuilder<unknown>,
  order: RawBuilder<unknown>,
  limit: number,
  cap: number,
): Part<Listed<Row>> {
  return sql<Listed<Row>>`json_build_object(
    'count', (select count(*) from (select from ${from} where ${where} limit ${cap + 1}) k),
    'rows', coalesce((
      select json_agg(to_jsonb(c) - 'listed_position' order by c.listed_position)
      from (
        select ${columns}, row_number() over (order by ${order}) as listed_position
        from ${from} where ${where} order by ${order} limit ${limit}
      ) c), '[]'::json))`;
}

function anyScope(column: RawBuilder<unknown>, scopes: readonly string[]): RawBuilder<SqlBool> {
  if (scopes.includes('/')) return sql<SqlBool>`true`;
  if (scopes.length === 0) return sql<SqlBool>`false`;
  return sql<SqlBool>`(${sql.join(
    scopes.map((s) => scopeAtOrUnder(column, s)),
    sql` or `,
  )})`;
}

export interface TaskRow {
  id: string;
  type: string;
  subject: string;
  request_number: string | null;
  message_id: string | null;
  due_at: string | null;
}

/** Who may see a request, on the columns that hold its scope and references (requests' visibleScopes). */
export type VisibleOn = (columns: RequestAccessColumns) => RawBuilder<SqlBool>;

/**
 * The open tasks assigned to the user with a due time in [from, before), soonest first: on a
 * request the user may still see, or on an inbox message of a scope whose inbox the user works.
 * The request's scope and references are read from the copies the task keeps (migration 8001), so
 * neither the list nor its count joins requests; a kept scope means the request exists.
 */
export function assignedTasks(
  q: { userId: string; visible: VisibleOn; inboxScopes: string[]; from?: Date; before?: Date },
  limit: number,
  cap: number,
): Part<Listed<TaskRow>> {
  const visible = q.visible({
    scope: sql.ref('t.request_scope'),
    externalUserReferences: sql.ref('t.request_external_user_references'),
  });
  const where = sql<SqlBool>`t.assigned_to = ${q.userId} and t.completed_at is null
    and ${q.from ? sql`t.due_at >= ${q.from}` : sql`true`} and ${q.before ? sql`t.due_at < ${q.before}` : sql`true`}
    and ((t.request_scope is not null and ${visible})
      or (t.request_number is null and t.message_id is not null and ${anyScope(sql.ref('t.scope'), q.inboxScopes)}))`;
  return listedPart<TaskRow>(
    sql`tasks t`,
    where,
    sql`t.id::text as id, t.type, t.subject, t.request_number, t.message_id, t.due_at`,
    sql`t.due_at, t.id`,
    limit,
    cap,
  );
}

export interface RequestRow {
  request_number: string;
  applicant_name: string;
  status: string;
  at: string;
}

export interface Touched {
  rows: RequestRow[];
  /** Every request looked at (of the user's latest events): a change to any may change the rows. */
  considered: string[];
}

/** The requests the user's own actions changed last (newest first), among those still visible. */
export function requestsTouched(userId: string, visible: Visible, limit: number): Part<Touched> {
  // The user's latest 200 request events are plenty to find the last few distinct requests. By
  // time, not id: history written in bulk (the demo's year) has new ids for old events.
  return sql<Touched>`(
    with mine as (
      select e.aggregate_id, e.created_at from events e
      where e.actor = ${userId} and e.aggregate_type = 'request' and e.actor is not null
      order by e.created_at desc limit 200
    ), last as (
      -- In the answer's order, so the lookups below stop at the limit (about 20 buffers, not 800).
      select aggregate_id, max(created_at) as at from mine group by aggregate_id order by at desc, aggregate_id
    )
    select json_build_object(
      'considered', coalesce((select json_agg(aggregate_id) from last), '[]'::json),
      'rows', coalesce((select json_agg(r order by r.at desc, r.request_number) from (
        select requests.request_number, requests.applicant_name, requests.status, last.at
        from last join lateral (
          select * from requests where requests.request_number = last.aggregate_id
            and ${visible(expressionBuilder<Database, 'requests'>())}
        ) requests on true
        order by last.at desc, last.aggregate_id limit ${limit}
      ) r), '[]'::json)))`;
}

export interface SenderTaskRow {
  id: string;
  subject: string;
  request_number: string;
  applicant_name: string;
  due_at: string | null;
}

/** Open Sender Action Required tasks of the requests the sender side sees, soonest due first. */
export function waitingOnSender(visible: Visible, limit: number, cap: number): Part<Listed<SenderTaskRow>> {
  return listedPart<SenderTaskRow>(
    sql`tasks t join requests on requests.request_number = t.request_number`,
    sql<SqlBool>`t.type = 'senderActionRequired' and t.completed_at is null and requests.status <> 'closed'
      and ${visible(expressionBuilder<Database, 'requests'>())}`,
    sql`t.id::text as id, t.subject, t.request_number, requests.applicant_name, t.due_at`,
    sql`t.due_at, t.id`,
    limit,
    cap,
  );
}

/** Visible requests with activity after `since` (a timestamp expression), most recent first. */
export function changedSince(
  visible: Visible,
  since: RawBuilder<unknown>,
  limit: number,
  cap: number,
): Part<Listed<RequestRow>> {
  return listedPart<RequestRow>(
    sql`requests`,
    sql<SqlBool>`requests.last_activity_at > ${since} and ${visible(expressionBuilder<Database, 'requests'>())}`,
    sql`requests.request_number, requests.applicant_name, requests.status, requests.last_activity_at as at`,
    sql`requests.last_activity_at desc, requests.request_number`,
    limit,
    cap,
  );
}

export interface MailRow {
  id: string;
  to: string;
  subject: string;
  failed_at: string;
}

/** Mail that failed for good, newest first, within the scopes the reader may see mail of. */
export function failedMail(scopes: string[], limit: number, cap: number): Part<Listed<MailRow>> {
  return listedPart<MailRow>(
    sql`mail_outbox m`,
    sql<SqlBool>`m.failed_at is not null and ${anyScope(sql.ref('m.scope'), scopes)}`,
    sql`m.id::text as id, m."to", m.subject, m.failed_at`,
    sql`m.id desc`,
    limit,
    cap,
  );
}

export interface MessageRow {
  id: string;
  from_email: string;
  subject: string;
  received_at: string;
}

/** Inbox messages linked to no request, newest first, within the scopes whose inbox the user works. */
export function unmatchedMessages(scopes: string[], limit: number, cap: number): Part<Listed<MessageRow>> {
  return listedPart<MessageRow>(
    sql`inbox_messages m`,
    sql<SqlBool>`${anyScope(sql.ref('m.scope'), scopes)} and not exists (
      select 1 from inbox_message_links l where l.message_id = m.id and l.unlinked_at is null)`,
    sql`m.id::text as id, m.from_email, m.subject, m.received_at`,
    sql`m.received_at desc, m.id desc`,
    limit,
    cap,
  );
}

export interface UnreadRow {
  id: string;
  text: string;
  target: string;
  created_at: string;
}

/** The user's notifications not yet acknowledged, newest first. */
export function unreadNotifications(userId: string, limit: number, cap: number): Part<Listed<UnreadRow>> {
  return listedPart<UnreadRow>(
    sql`notifications n`,
    sql<SqlBool>`n.user_id = ${userId} and n.acknowledged_at is null`,
    sql`n.id::text as id, n.text, n.target, n.created_at`,
    sql`n.id desc`,
    limit,
    cap,
  );
}

/** A view of the page after this long without one starts a new visit. */
export const VISIT_PAUSE_MS = 30 * 60_000;
/** The last view is written at most this often while a visit goes on (else every load would write). */
export const VIEW_TOUCH_MS = 5 * 60_000;

export interface Visit {
  /** Whether this view needs no write: the visit goes on and its last view is recent. */
  recorded: boolean;
  /** When the visit before this one began: null on a first visit ever. */
  last_visit_at: string | null;
}

const ago = (now: Date, ms: number) => new Date(now.getTime() - ms);

/**
 * When the visit before this one began, as recordVisit will record it, on the user's row `v` of
 * home_visits: a view within VISIT_PAUSE_MS of the last one belongs to the visit going on (whatever
 * the session: a reload, a second browser, signing in again), so the list of changes stays put while
 * the user works through it; the first view after a pause moves that visit's start into
 * previous_visit_at.
 */
const lastVisitOn = (now: Date) =>
  sql`case when v.last_view_at > ${ago(now, VISIT_PAUSE_MS)} then v.previous_visit_at else v.visit_started_at end`;

/** The user's visit as read: null when the user never came before (nothing recorded). */
export function visit(userId: string, now: Date): Part<Visit | null> {
  return sql<Visit | null>`(select json_build_object('recorded', v.last_view_at > ${ago(now, VIEW_TOUCH_MS)},
    'last_visit_at', ${lastVisitOn(now)}) from home_visits v where v.user_id = ${userId})`;
}

/** The last visit, or `fallback` for a user who never came before: what "changed since" counts from. */
export function visitOrSince(userId: string, now: Date, fallback: Date): RawBuilder<unknown> {
  return sql`coalesce((select ${lastVisitOn(now)} from home_visits v where v.user_id = ${userId}),
    ${fallback}::timestamptz)`;
}

/** Records a view (see lastVisitOn): a new visit after a pause; the page reads it before, in its statement. */
export async function recordVisit(db: DbOrTrx, userId: string, sessionId: string, now: Date): Promise<void> {
  await sql`
    insert into home_visits as v (user_id, session_id, visit_started_at, previous_visit_at, last_view_at)
    values (${userId}, ${sessionId}, ${now}, null, ${now})
    on conflict (user_id) do update set
      previous_visit_at = ${lastVisitOn(now)},
      visit_started_at = case when v.last_view_at > ${ago(now, VISIT_PAUSE_MS)} then v.visit_started_at else excluded.visit_started_at end,
      last_view_at = excluded.last_view_at,
      session_id = excluded.session_id`.execute(db);
}
