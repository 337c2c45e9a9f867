import { type Expression, expressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { scopeAtOrUnder } from '../../db/scopes.js';

// All SQL of the home page. Every list is read in the order of an index and stops after a few rows,
// every count stops at a cap, so the page costs the same on a million requests as on ten:
// a user's open tasks through (assigned_to, due_at) of migration 0001, the sender's tasks through
// (type, due_at, id) of 0017, the requests touched through (actor, created_at) of events and the requests
// changed through (last_activity_at) of migration 301, failed mail through its partial index of
// 0023, the inbox newest first through (received_at, id) of 0016.

type Visible = (eb: ReturnType<typeof expressionBuilder<Database, 'requests'>>) => Expression<SqlBool>;

export interface Listed<Row> {
  rows: Row[];
  /** Counted up to cap + 1: more than cap means "cap+". */
  count: number;
}

/** One round trip for both: the first `cap + 1` rows in order, counted, of which the first `limit` are answered. */
async function listAndCount<Row>(
  db: DbOrTrx,
  from: RawBuilder<unknown>,
  where: RawBuilder<SqlBool>,
  columns: RawBuilder<unknown>,
  order: RawBuilder<unknown>,
  limit: number,
  cap: number,
): Promise<Listed<Row>> {
  const { rows } = await sql<Row & { listed_position: string; listed_count: string }>`
    with capped as (
      select ${columns}, row_number() over (order by ${order}) as listed_position
      from ${from} where ${where} order by ${order} limit ${cap + 1}
    )
    select *, (select count(*) from capped) as listed_count
    from capped where listed_position <= ${limit} order by listed_position`.execute(db);
  return {
    rows: rows.map(({ listed_position: _position, listed_count: _count, ...row }) => row as Row),
    count: Number(rows[0]?.listed_count ?? 0),
  };
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
  due_at: Date | null;
}

/**
 * The open tasks assigned to the user with a due time in [from, before), soonest first: on a
 * request the user may still see, or on an inbox message of a scope whose inbox the user works.
 */
export function listAssignedTasks(
  db: DbOrTrx,
  q: { userId: string; visible: Visible; inboxScopes: string[]; from?: Date; before?: Date },
  limit: number,
  cap: number,
): Promise<Listed<TaskRow>> {
  const visible = q.visible(expressionBuilder<Database, 'requests'>());
  const where = sql<SqlBool>`t.assigned_to = ${q.userId} and t.completed_at is null
    and ${q.from ? sql`t.due_at >= ${q.from}` : sql`true`} and ${q.before ? sql`t.due_at < ${q.before}` : sql`true`}
    and ((requests.request_number is not null and ${visible})
      or (t.request_number is null and t.message_id is not null and ${anyScope(sql.ref('t.scope'), q.inboxScopes)}))`;
  return listAndCount<TaskRow>(
    db,
    sql`tasks t left join requests on requests.request_number = t.request_number`,
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
  at: Date;
}

/** The requests the user's own actions changed last (newest first), among those still visible. */
export async function listRequestsTouched(
  db: DbOrTrx,
  userId: string,
  visible: Visible,
  limit: number,
): Promise<RequestRow[]> {
  // The user's latest 200 request events are plenty to find the last few distinct requests. By
  // time, not id: history written in bulk (the demo's year) has new ids for old events.
  const { rows } = await sql<RequestRow>`
    with mine as (
      select e.aggregate_id, e.created_at from events e
      where e.actor = ${userId} and e.aggregate_type = 'request' and e.actor is not null
      order by e.created_at desc limit 200
    ), last as (select aggregate_id, max(created_at) as at from mine group by aggregate_id)
    select requests.request_number, requests.applicant_name, requests.status, last.at
    from last join requests on requests.request_number = last.aggregate_id
    where ${visible(expressionBuilder<Database, 'requests'>())}
    order by last.at desc, requests.request_number limit ${limit}`.execute(db);
  return rows;
}

export interface SenderTaskRow {
  id: string;
  subject: string;
  request_number: string;
  applicant_name: string;
  due_at: Date | null;
}

/** Open Sender Action Required tasks of the requests the sender side sees, soonest due first. */
export function listWaitingOnSender(
  db: DbOrTrx,
  visible: Visible,
  limit: number,
  cap: number,
): Promise<Listed<SenderTaskRow>> {
  return listAndCount<SenderTaskRow>(
    db,
    sql`tasks t join requests on requests.request_number = t.request_number`,
    sql<SqlBool>`t.type = 'senderActionRequired' and t.completed_at is null and requests.status <> 'closed'
      and ${visible(expressionBuilder<Database, 'requests'>())}`,
    sql`t.id::text as id, t.subject, t.request_number, requests.applicant_name, t.due_at`,
    sql`t.due_at, t.id`,
    limit,
    cap,
  );
}

/** Visible requests with activity after `since`, most recent first. */
export function listChangedSince(
  db: DbOrTrx,
  visible: Visible,
  since: Date,
  limit: number,
  cap: number,
): Promise<Listed<RequestRow>> {
  return listAndCount<RequestRow>(
    db,
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
  failed_at: Date;
}

/** Mail that failed for good, newest first, within the scopes the reader may see mail of. */
export function listFailedMail(db: DbOrTrx, scopes: string[], limit: number, cap: number) {
  return listAndCount<MailRow>(
    db,
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
  received_at: Date;
}

/** Inbox messages linked to no request, newest first, within the scopes whose inbox the user works. */
export function listUnmatchedMessages(db: DbOrTrx, scopes: string[], limit: number, cap: number) {
  return listAndCount<MessageRow>(
    db,
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
  created_at: Date;
}

/** The user's notifications not yet acknowledged, newest first. */
export function listUnreadNotifications(db: DbOrTrx, userId: string, limit: number, cap: number) {
  return listAndCount<UnreadRow>(
    db,
    sql`notifications n`,
    sql<SqlBool>`n.user_id = ${userId} and n.acknowledged_at is null`,
    sql`n.id::text as id, n.text, n.target, n.created_at`,
    sql`n.id desc`,
    limit,
    cap,
  );
}

/**
 * Records the visit and answers when the user last came in an earlier session: the first visit of
 * a session moves the previous session's start into previous_visit_at; later visits in the same
 * session leave both, so the list of changes stays put while the user works through it.
 */
export async function recordVisit(db: DbOrTrx, userId: string, sessionId: string, now: Date) {
  // Within one session the visit does not change: reading it spares the home page a write (and its
  // commit) on every load.
  const known = await db
    .selectFrom('home_visits')
    .select(['session_id', 'previous_visit_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (known?.session_id === sessionId) return known.previous_visit_at;
  const { rows } = await sql<{ previous_visit_at: Date | null }>`
    insert into home_visits as v (user_id, session_id, visit_started_at, previous_visit_at)
    values (${userId}, ${sessionId}, ${now}, null)
    on conflict (user_id) do update set
      previous_visit_at = case when v.session_id = excluded.session_id then v.previous_visit_at else v.visit_started_at end,
      visit_started_at = case when v.session_id = excluded.session_id then v.visit_started_at else excluded.visit_started_at end,
      session_id = excluded.session_id
    returning previous_visit_at`.execute(db);
  return rows[0]?.previous_visit_at ?? null;
}
