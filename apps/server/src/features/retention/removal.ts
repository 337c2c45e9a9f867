import { DE_IDENTIFIED, deIdentifyApplicant, deIdentifyContent, identifyingTexts } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Trx } from '../../db/database.js';
import type { FileStorage } from '../../files/storage.js';
import * as received from './receivedRepository.js';
import * as repo from './repository.js';

// The two removals of issue 36, on one locked request inside the caller's transaction. Both are
// idempotent: a file already removed is not listed again, a second de-identification finds
// nothing left to replace. The bytes are removed before the commit: should the commit fail, the
// next run removes them again (removing what is gone is no error, on disk or on S3).

export type LockedRequest = NonNullable<Awaited<ReturnType<typeof repo.lockRequest>>>;

/**
 * Removes the stored bytes of the raw messages and attachments of the mail linked to the request;
 * answers how many. The linking copied each attachment the request kept into a file of its own,
 * so another request the same mail was linked to keeps its copies.
 */
async function removeMessageFiles(trx: Trx, storage: FileStorage, messageIds: string[], at: Date) {
  const keys = await received.storedMessageFiles(trx, messageIds);
  for (const key of keys) await storage.remove(key);
  await received.markMessageFilesRemoved(trx, keys, at);
  return keys.length;
}

/** Removes the request's stored files and those of the mail received for it; answers how many. */
export async function removeFilesOf(
  trx: Trx,
  storage: FileStorage,
  requestNumber: string,
  at: Date,
  actor: string | null,
  why: string,
): Promise<number> {
  const keys = await repo.storedFilesOf(trx, requestNumber);
  for (const key of keys) await storage.remove(key);
  await repo.markFilesRemoved(trx, requestNumber, keys, at);
  const messageFiles = await removeMessageFiles(
    trx,
    storage,
    await received.linkedMessageIds(trx, requestNumber),
    at,
  );
  const removed = keys.length + messageFiles;
  if (removed === 0) return 0;
  await recordEvent(trx, {
    type: 'request.filesRemoved',
    aggregateType: 'request',
    aggregateId: requestNumber,
    actor,
    payload: { summary: `Removed ${removed} file(s) from storage: ${why}.`, files: removed },
  });
  return removed;
}

/**
 * Replaces the applicant's personal data, the free text of the content, the mail received for the
 * request (whose raw messages and attachments go from storage: they hold what was replaced), and
 * every quote of those texts. The quotes are collected first, while the names are still there.
 */
export async function deIdentifyRequest(
  trx: Trx,
  storage: FileStorage,
  row: LockedRequest,
  at: Date,
  actor: string | null,
  why: string,
): Promise<void> {
  const n = row.request_number;
  const messageIds = await received.linkedMessageIds(trx, n);
  const texts = identifyingTexts(
    row.applicant,
    row.reference_number,
    await received.receivedTexts(trx, n, messageIds),
  );
  const lexemes = await received.lexemesOf(trx, n);
  await repo.writeDeIdentified(trx, n, {
    applicant: deIdentifyApplicant(row.applicant),
    content: deIdentifyContent(row.content),
    referenceNumber: row.reference_number ? DE_IDENTIFIED : null,
    at,
  });
  await received.deIdentifyReceivedCorrespondence(trx, n);
  await received.deIdentifyInboxMessages(trx, messageIds);
  await removeMessageFiles(trx, storage, messageIds, at);
  await received.replaceQuotes(trx, n, messageIds, texts, DE_IDENTIFIED);
  await received.forgetLexemes(trx, lexemes);
  await recordEvent(trx, {
    type: 'request.deIdentified',
    aggregateType: 'request',
    aggregateId: n,
    actor,
    payload: { summary: `De-identified the applicant: ${why}.` },
  });
}
