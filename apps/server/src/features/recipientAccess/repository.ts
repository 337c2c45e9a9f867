import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

// The recipient's accesses and their sessions (migration 20261202_6001): hashes, and the token and
// passcode sealed under a key the database does not hold (20261203_1001, seal.ts).

export async function insertAccess(
  db: DbOrTrx,
  row: {
    id: string;
    requestNumber: string;
    correspondenceId: string | null;
    tokenHash: string;
    passcodeHash: string;
    method: string;
    sentTo: string;
    createdBy: string | null;
    createdAt: Date;
    expiresAt: Date;
    sealed: string | null;
  },
): Promise<string> {
  const inserted = await db
    .insertInto('recipient_accesses')
    .values({
      id: row.id,
      request_number: row.requestNumber,
      correspondence_id: row.correspondenceId,
      token_hash: row.tokenHash,
      passcode_hash: row.passcodeHash,
      method: row.method,
      sent_to: row.sentTo,
      created_by: row.createdBy,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
      sealed: row.sealed,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export function setAccessCorrespondence(db: DbOrTrx, accessId: string, correspondenceId: string) {
  return db
    .updateTable('recipient_accesses')
    .set({ correspondence_id: correspondenceId })
    .where('id', '=', accessId)
    .execute();
}

export function findAccessByTokenHash(db: DbOrTrx, tokenHash: string) {
  return db
    .selectFrom('recipient_accesses')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export type AccessRow = NonNullable<Awaited<ReturnType<typeof findAccessByTokenHash>>>;

export function findAccessOfRequest(db: DbOrTrx, requestNumber: string, accessId: string) {
  return db
    .selectFrom('recipient_accesses')
    .selectAll()
    .where('request_number', '=', requestNumber)
    .where('id', '=', accessId)
    .executeTakeFirst();
}

export function listAccessesOfRequest(db: DbOrTrx, requestNumber: string) {
  return db
    .selectFrom('recipient_accesses')
    .selectAll()
    .where('request_number', '=', requestNumber)
    .orderBy('created_at', 'desc')
    .limit(20)
    .execute();
}

export async function markUsed(db: DbOrTrx, accessId: string, at: Date): Promise<boolean> {
  // Answers whether this was the first opening.
  const row = await db
    .updateTable('recipient_accesses')
    .set({ last_used_at: at, first_opened_at: sql<Date>`coalesce(first_opened_at, ${at})` })
    .where('id', '=', accessId)
    .returning(sql<boolean>`first_opened_at = ${at}`.as('first'))
    .executeTakeFirst();
  return row?.first === true;
}

export async function lockAccess(db: DbOrTrx, accessId: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('recipient_accesses')
    .set({ locked_at: at })
    .where('id', '=', accessId)
    .where('locked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes the request's accesses still usable (all, or one); answers the ids revoked. */
export async function revokeAccesses(
  db: DbOrTrx,
  requestNumber: string,
  by: string | null,
  at: Date,
  accessId?: string,
): Promise<string[]> {
  let query = db
    .updateTable('recipient_accesses')
    .set({ revoked_at: at, revoked_by: by })
    .where('request_number', '=', requestNumber)
    .where('revoked_at', 'is', null);
  if (accessId) query = query.where('id', '=', accessId);
  const rows = await query.returning('id').execute();
  return rows.map((r) => r.id);
}

/** Counts bytes against the access's cap; false (and nothing counted) when they would exceed it. */
export async function addUploadedBytes(db: DbOrTrx, accessId: string, bytes: number, cap: number) {
  const result = await db
    .updateTable('recipient_accesses')
    .set({ uploaded_bytes: sql`uploaded_bytes + ${bytes}` })
    .where('id', '=', accessId)
    .where(sql<boolean>`uploaded_bytes + ${bytes} <= ${cap}`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertSession(db: DbOrTrx, idHash: string, accessId: string, ip: string) {
  await db.insertInto('recipient_sessions').values({ id_hash: idHash, access_id: accessId, ip }).execute();
}

/** The session and its access, when the session was seen within the idle minutes. */
export function findLiveSession(db: DbOrTrx, idHash: string, idleSince: Date) {
  return db
    .selectFrom('recipient_sessions')
    .select(['id_hash', 'access_id', 'last_seen_at'])
    .where('id_hash', '=', idHash)
    .where('last_seen_at', '>', idleSince)
    .executeTakeFirst();
}

export function touchSession(db: DbOrTrx, idHash: string, at: Date) {
  return db
    .updateTable('recipient_sessions')
    .set({ last_seen_at: at })
    .where('id_hash', '=', idHash)
    .execute();
}

export function deleteSessionsOfAccesses(db: DbOrTrx, accessIds: string[]) {
  if (accessIds.length === 0) return Promise.resolve();
  return db
    .deleteFrom('recipient_sessions')
    .where('access_id', 'in', accessIds)
    .execute()
    .then(() => undefined);
}

/** The directory's payees the recipient may pick: those named as the recipient or with its address. */
export function listPayeesLike(db: DbOrTrx, name: string, email: string | null) {
  return db
    .selectFrom('payees')
    .select(['id', 'name'])
    .where('disabled', '=', false)
    .where((eb) =>
      eb.or([
        eb(sql`lower(name)`, '=', name.trim().toLowerCase()),
        ...(email ? [eb(sql`lower(email)`, '=', email.trim().toLowerCase())] : []),
      ]),
    )
    .orderBy('name')
    .limit(20)
    .execute();
}

export function findPayeeById(db: DbOrTrx, payeeId: string) {
  return db
    .selectFrom('payees')
    .select(['id', 'name', 'reference_number', 'email', 'bank_account'])
    .where('id', '=', payeeId)
    .where('disabled', '=', false)
    .executeTakeFirst();
}

/** What came in through the access: the request's events recorded by it (newest first). */
export function listSentThrough(db: DbOrTrx, requestNumber: string, accessId: string) {
  return db
    .selectFrom('events')
    .select(['created_at', 'payload'])
    .where('aggregate_type', '=', 'request')
    .where('aggregate_id', '=', requestNumber)
    .where('type', 'in', [
      'request.recipientUploaded',
      'request.recipientAnswered',
      'request.recipientMessage',
    ])
    .where(sql<boolean>`payload ->> 'accessId' = ${accessId}`)
    .orderBy('created_at', 'desc')
    .limit(50)
    .execute();
}

/** The attachments of the issued letter the access came with. */
export async function findLetterAttachments(
  db: DbOrTrx,
  requestNumber: string,
  correspondenceId: string | null,
) {
  if (!correspondenceId) return [];
  const row = await db
    .selectFrom('correspondence')
    .select('attachments')
    .where('id', '=', correspondenceId)
    .where('request_number', '=', requestNumber)
    .executeTakeFirst();
  return row?.attachments ?? [];
}

/** Was the file uploaded through this access (and not yet used by an answer)? */
export async function findUploadOfAccess(db: DbOrTrx, requestNumber: string, accessId: string, key: string) {
  const uploaded = await db
    .selectFrom('events')
    .select('payload')
    .where('aggregate_type', '=', 'request')
    .where('aggregate_id', '=', requestNumber)
    .where('type', '=', 'request.recipientUploaded')
    .where(sql<boolean>`payload ->> 'accessId' = ${accessId}`)
    .where(sql<boolean>`payload ->> 'key' = ${key}`)
    .executeTakeFirst();
  if (!uploaded) return undefined;
  const used = await db
    .selectFrom('correspondence')
    .select('id')
    .where('request_number', '=', requestNumber)
    .where('via_recipient_page', '=', true)
    .where(sql<boolean>`attachments @> ${JSON.stringify([{ key }])}::jsonb`)
    .executeTakeFirst();
  if (used) return undefined;
  return db
    .selectFrom('files')
    .select(['key', 'name', 'content_type', 'size'])
    .where('key', '=', key)
    .executeTakeFirst();
}
