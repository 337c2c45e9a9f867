import { sql } from 'kysely';
import type { DbOrTrx, Trx } from '../../db/database.js';
import type { StoredInboxAttachment } from '../../db/jsonColumns.js';
import { scopeAtOrUnder } from '../../db/scopes.js';
import { escapeLike } from '../../db/search.js';
import { insertReceivedFile as insertFile } from '../../files/repository.js';
import type { visibleRequests } from '../requests/index.js';
import { selectTaskItems } from '../tasks/index.js';

export type { StoredInboxAttachment };

// SQL of the inbox: incoming messages, their links to requests, their files and tasks. Lists read
// through inbox_messages_received_idx (newest first), the sender indexes and the full-text index;
// the links and tasks of one message through their (message_id, id) indexes.

export interface NewInboxMessage {
  id: string;
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  from: { displayName?: string; email?: string };
  to: { displayName?: string; email: string }[];
  subject: string;
  bodyText: string;
  bodyHtml: string | null;
  receivedAt: Date;
  rawFileKey: string;
  rawSize: number;
  flagReason: string | null;
  attachments: StoredInboxAttachment[];
}

export async function insertInboxMessage(db: DbOrTrx, m: NewInboxMessage): Promise<void> {
  await db
    .insertInto('inbox_messages')
    .values({
      id: m.id,
      message_id: m.messageId,
      in_reply_to: m.inReplyTo,
      references: m.references,
      from_address: JSON.stringify(m.from),
      from_email: m.from.email ?? '',
      to_addresses: JSON.stringify(m.to),
      subject: m.subject,
      body_text: m.bodyText,
      body_html: m.bodyHtml,
      received_at: m.receivedAt,
      raw_file_key: m.rawFileKey,
      raw_size: m.rawSize,
      flag_reason: m.flagReason,
      attachments: JSON.stringify(m.attachments),
    })
    .execute();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findInboxMessage(db: DbOrTrx, id: string, options: { forUpdate?: boolean } = {}) {
  if (!UUID.test(id)) return undefined;
  const query = db
    .selectFrom('inbox_messages')
    .select([
      'id',
      'scope',
      'message_id',
      'in_reply_to',
      'references',
      'from_address',
      'from_email',
      'to_addresses',
      'subject',
      'body_text',
      'body_html',
      'received_at',
      'raw_file_key',
      'raw_size',
      'flag_reason',
      'attachments',
    ])
    .where('id', '=', id);
  return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export type InboxMessageRow = NonNullable<Awaited<ReturnType<typeof findInboxMessage>>>;

/** A file received by mail, already written to storage (the files table's one insert of it). */
export async function insertReceivedFile(
  db: DbOrTrx,
  file: {
    key: string;
    name: string;
    contentType: string;
    size: number;
    sha256: string;
    ownerType: string;
    ownerId: string;
    classification?: string | null;
  },
): Promise<void> {
  const { ownerType, ownerId, classification, ...stored } = file;
  await insertFile(db, {
    ...stored,
    owner: { type: ownerType, id: ownerId, classification: classification ?? null },
  });
}

export function findFileRow(db: DbOrTrx, key: string) {
  return db
    .selectFrom('files')
    .select(['key', 'name', 'content_type', 'size', 'sha256'])
    .where('key', '=', key)
    .executeTakeFirst();
}

/** The requests among these numbers, locked in a stable order for linking. */
export function lockRequests(db: Trx, numbers: string[]) {
  if (numbers.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('requests')
    .selectAll()
    .where('request_number', 'in', numbers)
    .orderBy('request_number')
    .forUpdate()
    .execute();
}

/** The requests whose mail we sent under one of these Message-IDs (reply threading). */
export async function requestsOfSentMessages(db: DbOrTrx, messageIds: string[]): Promise<string[]> {
  if (messageIds.length === 0) return [];
  // Issued requests through their correspondence; every other mail about a request (reminders,
  // result deliveries, workflow mails) through its outbox row (mail_outbox_message_id_idx).
  const rows = await db
    .selectFrom('correspondence')
    .select('request_number')
    .where('message_id', 'in', messageIds)
    .where('mail_outbox_id', 'is not', null)
    .union(
      db
        .selectFrom('mail_outbox')
        .select(sql<string>`request_number`.as('request_number'))
        .where('message_id', 'in', messageIds)
        .where('request_number', 'is not', null),
    )
    .limit(10)
    .execute();
  return rows.map((r) => r.request_number);
}

export async function insertLink(
  db: DbOrTrx,
  link: {
    messageId: string;
    requestNumber: string;
    correspondenceId: string;
    linkedBy: string | null;
    at: Date;
  },
): Promise<void> {
  await db
    .insertInto('inbox_message_links')
    .values({
      message_id: link.messageId,
      request_number: link.requestNumber,
      correspondence_id: link.correspondenceId,
      linked_by: link.linkedBy,
      linked_at: link.at,
    })
    .execute();
}

export function listLinks(db: DbOrTrx, messageId: string) {
  return db
    .selectFrom('inbox_message_links as l')
    .leftJoin('users as lb', 'lb.id', 'l.linked_by')
    .leftJoin('users as ub', 'ub.id', 'l.unlinked_by')
    .select([
      'l.id',
      'l.request_number',
      'l.correspondence_id',
      'l.linked_at',
      'l.unlinked_at',
      'lb.name as linked_by_name',
      'ub.name as unlinked_by_name',
    ])
    .where('l.message_id', '=', messageId)
    .orderBy('l.id')
    .limit(100)
    .execute();
}

export type LinkRow = Awaited<ReturnType<typeof listLinks>>[number];

export function findLiveLink(db: DbOrTrx, messageId: string, requestNumber: string) {
  return db
    .selectFrom('inbox_message_links')
    .select(['id', 'correspondence_id'])
    .where('message_id', '=', messageId)
    .where('request_number', '=', requestNumber)
    .where('unlinked_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export async function markUnlinked(db: DbOrTrx, linkId: string, actorId: string, at: Date): Promise<void> {
  await db
    .updateTable('inbox_message_links')
    .set({ unlinked_at: at, unlinked_by: actorId })
    .where('id', '=', linkId)
    .execute();
}

export async function deleteCorrespondence(db: DbOrTrx, requestNumber: string, id: string): Promise<void> {
  await db
    .deleteFrom('correspondence')
    .where('request_number', '=', requestNumber)
    .where('id', '=', id)
    .execute();
}

/** Whether someone who may see this request ever had this message linked to it (file access). */
export async function wasLinkedTo(db: DbOrTrx, messageId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('inbox_message_links')
    .select('request_number')
    .where('message_id', '=', messageId)
    .limit(100)
    .execute();
  return rows.map((r) => r.request_number);
}

export function listTasksOfMessage(db: DbOrTrx, messageId: string) {
  return selectTaskItems(db)
    .where('t.message_id', '=', messageId)
    .orderBy('t.id', 'desc')
    .limit(50)
    .execute();
}

export async function openClassifyTaskIds(db: DbOrTrx, messageId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('tasks')
    .select('id')
    .where('message_id', '=', messageId)
    .where('type', '=', 'classifyIncomingMessage')
    .where('completed_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}

export interface InboxSearch {
  /** Only messages at or under these scopes (the actor's inbox scopes). */
  scopes: string[];
  sender?: string | undefined;
  content?: string | undefined;
  receivedAtFrom?: Date | undefined;
  receivedAtTo?: Date | undefined;
  offset: number;
  size: number;
}

/** A page of messages, newest first, and how many match (counted up to a cap). */
export async function searchMessages(db: DbOrTrx, q: InboxSearch) {
  let query = db
    .selectFrom('inbox_messages as m')
    .where((eb) => eb.or(q.scopes.map((s) => scopeAtOrUnder(sql.ref('m.scope'), s))));
  if (q.sender)
    query = query.where(
      sql<boolean>`lower(m.from_email || ' ' || coalesce(m.from_address ->> 'displayName', '')) like ${`%${escapeLike(q.sender.toLowerCase())}%`}`,
    );
  if (q.content) query = query.where(sql<boolean>`m.search @@ plainto_tsquery('simple', ${q.content})`);
  if (q.receivedAtFrom) query = query.where('m.received_at', '>=', q.receivedAtFrom);
  if (q.receivedAtTo) query = query.where('m.received_at', '<', q.receivedAtTo);
  const [rows, count] = await Promise.all([
    query
      .select([
        'm.id',
        'm.from_address',
        'm.received_at',
        'm.subject',
        'm.body_text',
        'm.attachments',
        'm.flag_reason',
        (eb) =>
          eb
            .selectFrom('inbox_message_links as l')
            .select(sql<string[]>`coalesce(array_agg(l.request_number order by l.id), '{}')`.as('n'))
            .whereRef('l.message_id', '=', 'm.id')
            .where('l.unlinked_at', 'is', null)
            .as('linked_numbers'),
      ])
      .orderBy('m.received_at', 'desc')
      .orderBy('m.id', 'desc')
      .offset(q.offset)
      .limit(q.size)
      .execute(),
    // Counting stops at 10,000: past that the exact number helps nobody and costs a full scan.
    db
      .selectFrom(query.select('m.id').limit(10_000).as('capped'))
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The scopes of the requests the message is linked to now. */
export async function linkedRequestScopes(db: DbOrTrx, messageId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('inbox_message_links as l')
    .innerJoin('requests as r', 'r.request_number', 'l.request_number')
    .select('r.scope')
    .where('l.message_id', '=', messageId)
    .where('l.unlinked_at', 'is', null)
    .execute();
  return rows.map((r) => r.scope);
}

export async function setMessageScope(db: DbOrTrx, messageId: string, scope: string): Promise<void> {
  await db.updateTable('inbox_messages').set({ scope }).where('id', '=', messageId).execute();
}

/** Requests matching any of these numbers, references, emails or applicant names that the filter allows. */
export function findSuggestedRequests(
  db: DbOrTrx,
  filter: ReturnType<typeof visibleRequests>,
  by: { numbers: string[]; references: string[]; email: string | null; names: string[] },
) {
  return db
    .selectFrom('requests')
    .select(['request_number', 'applicant_name', 'recipient_name', 'status', 'submitted_at'])
    .where(filter)
    .where((eb) => {
      const any = [];
      if (by.numbers.length) any.push(eb('request_number', 'in', by.numbers));
      // The full-text index finds the candidates; the exact comparison keeps only real matches.
      if (by.references.length) {
        const query = sql.join(
          by.references.map((r) => sql`plainto_tsquery('simple', ${r})`),
          sql` || `,
        );
        any.push(
          sql<boolean>`(requests.search @@ (${query}) and (requests.reference_number = any(${by.references}::text[])
            or requests.applicant ->> 'reference1' = any(${by.references}::text[])
            or requests.applicant ->> 'reference2' = any(${by.references}::text[])
            or requests.external_user_references && ${by.references}::text[]))`,
        );
      }
      if (by.email) {
        any.push(
          sql<boolean>`(requests.search @@ plainto_tsquery('simple', ${by.email}) and (lower(requests.recipient ->> 'email') = ${by.email} or lower(requests.applicant ->> 'email') = ${by.email}))`,
        );
      }
      for (const name of by.names)
        any.push(sql<boolean>`lower(requests.applicant_name) = ${name.toLowerCase()}`);
      return any.length ? eb.or(any) : sql<boolean>`false`;
    })
    .orderBy('submitted_at', 'desc')
    .limit(10)
    .execute();
}

/**
 * Who handled a closed request last, most likely first: whoever closed it, then the assignees of
 * its tasks by when they were completed (a staff user, never the sender's own tasks' nobody).
 */
export async function lastHandlersOfRequest(db: DbOrTrx, requestNumber: string): Promise<string[]> {
  const closer = await db
    .selectFrom('requests')
    .select('closed_by')
    .where('request_number', '=', requestNumber)
    .executeTakeFirst();
  const assignees = await db
    .selectFrom('tasks')
    .select('assigned_to')
    .where('request_number', '=', requestNumber)
    .where('assigned_to', 'is not', null)
    .orderBy(sql`completed_at desc nulls last`)
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  const ids = [closer?.closed_by, ...assignees.map((a) => a.assigned_to)];
  return [...new Set(ids.filter((id): id is string => typeof id === 'string'))];
}
