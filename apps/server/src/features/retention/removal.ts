import { DE_IDENTIFIED, deIdentifyApplicant, deIdentifyContent, identifyingTexts } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Trx } from '../../db/database.js';
import type { FileStorage } from '../../files/storage.js';
import * as repo from './repository.js';

// The two removals of issue 36, on one locked request inside the caller's transaction. Both are
// idempotent: a file already removed is not listed again, a second de-identification finds
// nothing left to replace. The bytes are removed before the commit: should the commit fail, the
// next run removes them again (removing what is gone is no error, on disk or on S3).

export type LockedRequest = NonNullable<Awaited<ReturnType<typeof repo.lockRequest>>>;

/** Removes the request's stored files; answers how many. */
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
  if (keys.length === 0) return 0;
  await recordEvent(trx, {
    type: 'request.filesRemoved',
    aggregateType: 'request',
    aggregateId: requestNumber,
    actor,
    payload: { summary: `Removed ${keys.length} file(s) from storage: ${why}.`, files: keys.length },
  });
  return keys.length;
}

/** Replaces the applicant's personal data, the free text of the content and their quotes. */
export async function deIdentifyRequest(
  trx: Trx,
  row: LockedRequest,
  at: Date,
  actor: string | null,
  why: string,
): Promise<void> {
  const n = row.request_number;
  const texts = identifyingTexts(row.applicant, row.reference_number);
  await repo.writeDeIdentified(trx, n, {
    applicant: deIdentifyApplicant(row.applicant),
    content: deIdentifyContent(row.content),
    referenceNumber: row.reference_number ? DE_IDENTIFIED : null,
    at,
  });
  await repo.replaceQuotedTexts(trx, n, texts, DE_IDENTIFIED);
  await recordEvent(trx, {
    type: 'request.deIdentified',
    aggregateType: 'request',
    aggregateId: n,
    actor,
    payload: { summary: `De-identified the applicant: ${why}.` },
  });
}
