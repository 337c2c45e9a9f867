import { DE_IDENTIFIED, deIdentifiedFileName } from '@dossier/core';
import { type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

// SQL of what came in from outside for a request (issue 36): mail received and linked to it (the
// inbox message, its raw .eml and attachments, the request's copy in its correspondence) and what
// the recipient sent on the recipient's page. Neither follows a form, so neither can be
// de-identified field by field: the free text (subject, body) is replaced whole, display names
// and the sender's address go, dates and the links to the request stay. Also the quotes of the
// person's texts in the request's history, tasks, notifications and mail, and the search
// vocabulary (request_lexemes) the request alone held.

/** The inbox messages linked to the request (a link undone since was a mistake: not its mail). */
export async function linkedMessageIds(db: DbOrTrx, requestNumber: string): Promise<string[]> {
  const rows = await db
    .selectFrom('inbox_message_links')
    .select('message_id')
    .distinct()
    .where('request_number', '=', requestNumber)
    .where('unlinked_at', 'is', null)
    .execute();
  return rows.map((r) => r.message_id);
}

/**
 * What the received mail says of the sender and the subject, and the names of the request's
 * files: the history quotes them ("Received a message from …", "The recipient uploaded …").
 */
export async function receivedTexts(db: DbOrTrx, requestNumber: string, messageIds: string[]) {
  const texts: string[] = [];
  const received = await db
    .selectFrom('correspondence')
    .select(['subject', 'from_address'])
    .where('request_number', '=', requestNumber)
    .where('kind', '=', 'message')
    .where('via_recipient_page', '=', false)
    .execute();
  for (const r of received)
    texts.push(r.subject ?? '', r.from_address?.displayName ?? '', r.from_address?.email ?? '');
  if (messageIds.length > 0) {
    const messages = await db
      .selectFrom('inbox_messages')
      .select(['subject', 'from_address'])
      .where('id', 'in', messageIds)
      .execute();
    for (const m of messages)
      texts.push(m.subject, m.from_address.displayName ?? '', m.from_address.email ?? '');
  }
  const files = await db
    .selectFrom('files')
    .select('name')
    .where((eb) =>
      eb.or([
        eb.and([eb('owner_type', '=', 'request'), eb('owner_id', '=', requestNumber)]),
        ...(messageIds.length > 0
          ? [eb.and([eb('owner_type', 'like', 'inboxMessage%'), eb('owner_id', 'in', messageIds)])]
          : []),
      ]),
    )
    .execute();
  for (const f of files)
    if (!f.name.startsWith('de-identified') && !f.name.startsWith('message-')) texts.push(f.name);
  return texts;
}

/** The received messages in the request's correspondence, free text and names replaced. */
export async function deIdentifyReceivedCorrespondence(db: DbOrTrx, requestNumber: string) {
  const rows = await db
    .selectFrom('correspondence')
    .select(['id', 'via_recipient_page', 'from_address', 'to_address', 'attachments'])
    .where('request_number', '=', requestNumber)
    .where('kind', '=', 'message')
    .execute();
  for (const r of rows) {
    const name = (a: { displayName?: string | null } | null) =>
      a && { displayName: a.displayName ? DE_IDENTIFIED : null, email: null };
    await db
      .updateTable('correspondence')
      .set({
        body: JSON.stringify({ type: 'text', content: DE_IDENTIFIED }),
        attachments: JSON.stringify(r.attachments.map((a) => ({ ...a, name: deIdentifiedFileName(a.name) }))),
        // On the recipient's page the sender is the recipient (an organisation, kept on the request)
        // and the subject says what kind of answer it was; mail's are anyone's words.
        ...(r.via_recipient_page
          ? {}
          : {
              subject: DE_IDENTIFIED,
              from_address: JSON.stringify(name(r.from_address)),
              to_address: JSON.stringify(name(r.to_address)),
            }),
      })
      .where('id', '=', r.id)
      .execute();
  }
}

/** The linked inbox messages: subject, body and names replaced (the search column follows). */
export async function deIdentifyInboxMessages(db: DbOrTrx, messageIds: string[]) {
  if (messageIds.length === 0) return;
  const rows = await db
    .selectFrom('inbox_messages')
    .select(['id', 'to_addresses', 'attachments'])
    .where('id', 'in', messageIds)
    .execute();
  for (const m of rows)
    await db
      .updateTable('inbox_messages')
      .set({
        subject: DE_IDENTIFIED,
        body_text: DE_IDENTIFIED,
        body_html: null,
        from_address: JSON.stringify({ displayName: DE_IDENTIFIED }),
        from_email: '',
        // Our own mailboxes' addresses, by which the message was routed, stay.
        to_addresses: JSON.stringify(m.to_addresses.map(({ displayName: _, ...a }) => a)),
        attachments: JSON.stringify(m.attachments.map((a) => ({ ...a, name: deIdentifiedFileName(a.name) }))),
      })
      .where('id', '=', m.id)
      .execute();
}

/** The raw messages and attachments of the linked inbox messages still stored. */
export async function storedMessageFiles(db: DbOrTrx, messageIds: string[]): Promise<string[]> {
  if (messageIds.length === 0) return [];
  const rows = await db
    .selectFrom('files')
    .select('key')
    .where('owner_type', 'like', 'inboxMessage%')
    .where('owner_id', 'in', messageIds)
    .where('removed_at', 'is', null)
    .execute();
  return rows.map((r) => r.key);
}

export async function markMessageFilesRemoved(db: DbOrTrx, keys: string[], at: Date) {
  if (keys.length > 0)
    await db
      .updateTable('files')
      .set({
        removed_at: at,
        name: sql`'de-identified' || coalesce(substring(name from '\\.[A-Za-z0-9]{1,8}$'), '')`,
      })
      .where('key', 'in', keys)
      .execute();
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\]/g;

/** One case-insensitive pattern of all the texts, longest first; as JSON writes them when `json`. */
function patternOf(texts: string[], json: boolean): string {
  return texts
    .map((t) => (json ? JSON.stringify(t).slice(1, -1) : t))
    .map((t) => t.replace(REGEX_SPECIAL, '\\$&'))
    .join('|');
}

/**
 * Replaces the texts, in any case, wherever the request's records quote them: its history and
 * correspondence (JSON text, escaped as JSON strings are), its tasks and those of its linked mail,
 * the notifications about it and its mail in the outbox.
 */
export async function replaceQuotes(
  db: DbOrTrx,
  requestNumber: string,
  messageIds: string[],
  texts: string[],
  by: string,
) {
  if (texts.length === 0) return;
  const inJson = patternOf(texts, true);
  const plain = patternOf(texts, false);
  const jsonBy = JSON.stringify(by).slice(1, -1);
  await db
    .updateTable('events')
    .set({ payload: sql`regexp_replace(payload::text, ${inJson}, ${jsonBy}, 'gi')::jsonb` })
    .where('aggregate_type', '=', 'request')
    .where('aggregate_id', '=', requestNumber)
    .where(sql<SqlBool>`payload::text ~* ${inJson}`)
    .execute();
  await db
    .updateTable('correspondence')
    .set({
      body: sql`regexp_replace(body::text, ${inJson}, ${jsonBy}, 'gi')::jsonb`,
      subject: sql`regexp_replace(subject, ${plain}, ${by}, 'gi')`,
    })
    .where('request_number', '=', requestNumber)
    .where(sql<SqlBool>`(body::text ~* ${inJson} or coalesce(subject, '') ~* ${plain})`)
    .execute();
  await db
    .updateTable('tasks')
    .set({ subject: sql`regexp_replace(subject, ${plain}, ${by}, 'gi')` })
    .where((eb) =>
      eb.or([
        eb('request_number', '=', requestNumber),
        ...(messageIds.length > 0 ? [eb('message_id', 'in', messageIds)] : []),
      ]),
    )
    .where(sql<SqlBool>`subject ~* ${plain}`)
    .execute();
  // The notifications about the request lead to it or to its received mail
  // (notifications_target_idx).
  const targets = [`/requests/${requestNumber}`, ...messageIds.map((id) => `/inbox/messages/${id}`)];
  await db
    .updateTable('notifications')
    .set({ text: sql`regexp_replace(text, ${plain}, ${by}, 'gi')` })
    .where('target', 'in', targets)
    .where(sql<SqlBool>`text ~* ${plain}`)
    .execute();
  await db
    .updateTable('mail_outbox')
    .set({
      subject: sql`regexp_replace(subject, ${plain}, ${by}, 'gi')`,
      text: sql`regexp_replace(text, ${plain}, ${by}, 'gi')`,
      html: sql`regexp_replace(html, ${plain}, ${by}, 'gi')`,
      text_after_send: sql`regexp_replace(text_after_send, ${plain}, ${by}, 'gi')`,
    })
    .where('request_number', '=', requestNumber)
    .where(
      sql<SqlBool>`(subject ~* ${plain} or text ~* ${plain} or coalesce(html, '') ~* ${plain}
        or coalesce(text_after_send, '') ~* ${plain})`,
    )
    .execute();
}

/** The request's search lexemes, read before its text changes. */
export async function lexemesOf(db: DbOrTrx, requestNumber: string): Promise<string[]> {
  const row = await db
    .selectFrom('requests')
    .select(sql<string[]>`tsvector_to_array(search || coalesce(content_search, ''::tsvector))`.as('lexemes'))
    .where('request_number', '=', requestNumber)
    .executeTakeFirst();
  return row?.lexemes ?? [];
}

/**
 * Forgets the lexemes no request holds any more (request_lexemes keeps every word ever written
 * otherwise, the person's name among them). Each is looked up through requests_fulltext_idx.
 */
export async function forgetLexemes(db: DbOrTrx, lexemes: string[]) {
  if (lexemes.length === 0) return;
  await sql`
    delete from request_lexemes l
    where l.lexeme = any(${lexemes}::text[])
      and not exists (select 1 from requests r
        where (r.search || coalesce(r.content_search, ''::tsvector)) @@ quote_literal(l.lexeme)::tsquery)
  `.execute(db);
}
