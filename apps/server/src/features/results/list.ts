import { type ResultItem, senderSeesResult } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import type { Actor } from '../auth/index.js';
import type { RequestRow } from '../requests/index.js';
import { isRequestStaff, readableRequestFiles } from '../requests/index.js';
import { listResults, type ResultRow } from './repository.js';

// The Results list of the request page (and the item the result page shows). The caller has
// already checked that the actor may view the request. Results reach the sender only after quality
// assurance: the sender side (submitters, external users) sees delivered results only.

/** Quality-assured (or QA skipped) and not discarded: what the sender may see and download. */
export function isResultDelivered(
  row: Pick<ResultRow, 'quality_assured_at' | 'quality_assurance_skipped' | 'discarded_at'>,
): boolean {
  return senderSeesResult({
    qualityAssured: row.quality_assured_at !== null,
    qualityAssuranceSkipped: row.quality_assurance_skipped,
    discarded: row.discarded_at !== null,
  });
}

/**
 * Whether the actor may see this result of the request: staff all of them, the sender side a
 * delivered result whose file it may open (a file also used as an invoice stays staff's).
 */
export async function canViewResult(
  db: DbOrTrx,
  actor: Actor,
  request: RequestRow,
  row: ResultRow,
): Promise<boolean> {
  if (isRequestStaff(actor, request)) return true;
  if (!isResultDelivered(row)) return false;
  return (await readableRequestFiles(db, actor, request, [row.file_key])).has(row.file_key);
}

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);

export function toResultItem(row: ResultRow, request: Pick<RequestRow, 'applicant_name'>): ResultItem {
  return {
    resultId: row.id,
    requestNumber: row.request_number,
    file: { key: row.file_key, name: row.file_name ?? undefined },
    tags: row.tags ?? {},
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
    createdByDisplayName: row.created_by_name,
    qualityAssuredAt: iso(row.quality_assured_at),
    qualityAssuredBy: row.quality_assured_by ?? undefined,
    qualityAssuredByDisplayName: row.quality_assured_by_name ?? undefined,
    qualityAssuranceSkipped: row.quality_assurance_skipped,
    downloadedAt: iso(row.downloaded_at),
    downloadedBy: row.downloaded_by ?? undefined,
    discardedAt: iso(row.discarded_at),
    ...(row.file_removed_at ? { fileRemovedAt: row.file_removed_at.toISOString() } : {}),
    subject: request.applicant_name,
    itemTypes: Array.isArray(row.item_types) ? row.item_types : [],
  };
}

export async function listRequestResults(
  db: DbOrTrx,
  actor: Actor,
  request: RequestRow,
): Promise<ResultItem[]> {
  const staff = isRequestStaff(actor, request);
  const rows = await listResults(db, request.request_number, { deliveredOnly: !staff });
  if (staff) return rows.map((row) => toResultItem(row, request));
  // A delivered result whose file is also an invoice (a use that denies wins) would list a file the
  // sender side may not open: the list leaves it out (senderMayReadFile in @dossier/core).
  const readable = await readableRequestFiles(
    db,
    actor,
    request,
    rows.map((row) => row.file_key),
  );
  return rows.filter((row) => readable.has(row.file_key)).map((row) => toResultItem(row, request));
}
