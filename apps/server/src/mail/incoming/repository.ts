import { sql } from 'kysely';
import type { Db, DbOrTrx, Trx } from '../../db/database.js';

// SQL of mail in beyond the inbox's own tables: finding a message already received under a
// Message-ID (inbox_messages_message_id_idx), and the state of each polled IMAP mailbox.

/** The inbox message received under this Message-ID, if any. */
export async function findMessageByMessageId(db: DbOrTrx, messageId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('inbox_messages')
    .select('id')
    .where('message_id', '=', messageId)
    .orderBy('received_at')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** Serialises the storing of one Message-ID (until commit), so two deliveries of it store one. */
export async function lockMessageId(trx: Trx, messageId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('inbox-message-id'), hashtext(${messageId}))`.execute(trx);
}

/** One poller at a time, over all instances: a session lock held on one connection while it reads. */
const IMAP_LOCK = 0x69_6d_61_70; // 'imap'

/**
 * Runs `poll` while holding the IMAP advisory lock on a connection of its own; answers undefined
 * without running it when another instance holds the lock. The lock ends with the connection, so
 * a crashed poller never keeps the others out.
 */
export async function withImapLock<T>(db: Db, poll: () => Promise<T>): Promise<T | undefined> {
  return db.connection().execute(async (conn) => {
    const got = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${IMAP_LOCK}) as ok`.execute(conn);
    if (got.rows[0]?.ok !== true) return undefined;
    try {
      return await poll();
    } finally {
      await sql`select pg_advisory_unlock(${IMAP_LOCK})`.execute(conn);
    }
  });
}

export interface MailboxState {
  uidValidity: string;
  lastUid: number;
}

export async function findMailboxState(db: DbOrTrx, mailbox: string): Promise<MailboxState | undefined> {
  const row = await db
    .selectFrom('imap_mailboxes')
    .select(['uid_validity', 'last_uid'])
    .where('mailbox', '=', mailbox)
    .executeTakeFirst();
  return row ? { uidValidity: String(row.uid_validity), lastUid: Number(row.last_uid) } : undefined;
}

/** A first poll, or a mailbox whose UIDs were renumbered (new UIDVALIDITY): counting starts again. */
export async function resetMailboxState(db: DbOrTrx, mailbox: string, uidValidity: string): Promise<void> {
  await db
    .insertInto('imap_mailboxes')
    .values({ mailbox, uid_validity: uidValidity, last_uid: 0 })
    .onConflict((oc) => oc.column('mailbox').doUpdateSet({ uid_validity: uidValidity, last_uid: 0 }))
    .execute();
}

/** Remembers that every UID up to `uid` is stored (never moves backwards). */
export async function advanceLastUid(db: DbOrTrx, mailbox: string, uid: number): Promise<void> {
  await db
    .updateTable('imap_mailboxes')
    .set({ last_uid: sql`greatest(last_uid, ${uid})` })
    .where('mailbox', '=', mailbox)
    .execute();
}

export async function recordPoll(db: DbOrTrx, mailbox: string, error: string | null): Promise<void> {
  await db
    .updateTable('imap_mailboxes')
    .set({ polled_at: new Date(), last_error: error })
    .where('mailbox', '=', mailbox)
    .execute();
}
