import type { DownloadFileItem, DownloadFilesView, Features } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import { type Db, type DbOrTrx, isTrx, type Trx } from '../../db/database.js';
import { registerFileReadRecorder } from '../../files/access.js';
import type { Actor } from '../auth/index.js';
import {
  fileOfRequest,
  findRequest,
  isRequestStaff,
  REQUEST_FILE_OWNER,
  readableFilesOfRequests,
} from '../requests/index.js';
import { assertMayUseDownloads, mayDownloadFrom } from './policy.js';
import * as repo from './repository.js';

// Download files: the quality-assured results (see repository.ts for which and in what
// order). Download fetches the file through GET /files/{key}, which checks visibility; the read is
// recorded there (recordResultFileRead), so a failed download marks nothing and every other way to
// the file (the result's link, the API) is recorded too.

export interface DownloadsOptions {
  features: Features;
  /** The most results the list holds (DOWNLOADS_MAX_RESULTS), sent as maxNumberResultsFetched. */
  maxResults: number;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toItem(row: repo.DownloadableRow): DownloadFileItem {
  return {
    resultId: row.id,
    requestNumber: row.request_number,
    subject: row.applicant_name,
    file: { key: row.file_key, name: row.file_name },
    itemTypes: Array.isArray(row.item_types) ? row.item_types : [],
    qualityAssuredAt: iso(row.quality_assured_at),
    qualityAssuredBy: row.quality_assured_by,
    qualityAssuredByDisplayName: row.quality_assured_by_name,
    downloadedAt: iso(row.downloaded_at),
    downloadedBy: row.downloaded_by,
    downloadedByDisplayName: row.downloaded_by_name,
  };
}

export async function getDownloadFilesView(
  db: Db,
  actor: Actor,
  options: DownloadsOptions,
): Promise<DownloadFilesView> {
  assertMayUseDownloads(actor, options.features);
  const rows = await repo.listDownloadableResults(db, mayDownloadFrom(actor), options.maxResults);
  // A result whose file the actor may not open (a use that denies: the file is also an invoice) is
  // not offered (senderMayReadFile in @dossier/core).
  const readable = await readableFilesOfRequests(
    db,
    actor,
    rows.map((row) => ({
      request: {
        request_number: row.request_number,
        scope: row.scope,
        external_user_references: row.external_user_references,
      },
      key: row.file_key,
    })),
  );
  return {
    $type: 'downloadFiles',
    title: 'Download Files',
    maxNumberResultsFetched: options.maxResults,
    results: rows.filter((row) => readable.has(fileOfRequest(row.request_number, row.file_key))).map(toItem),
  };
}

/**
 * Records a read of a request's file that is a result's (Download Files, the result's link, the
 * API: every path reads through GET /files/{key} or openFile), once its bytes went out: who, when,
 * and a history entry naming the file. "Downloaded" on Download Files means the request's sender
 * side got the bytes, so only a sender-side read marks its delivered results downloaded; staff
 * reads are recorded and marked nothing. A read of a result not delivered (staff checking it for
 * QA) is staff business in the history. The request row is locked, as for every event of a request.
 */
async function recordResultFileRead(
  db: DbOrTrx,
  actor: Actor,
  requestNumber: string,
  file: { key: string; name: string },
) {
  const record = async (trx: Trx) => {
    const request = await findRequest(trx, requestNumber, { forUpdate: true });
    if (!request) return;
    const results = await repo.findResultsOfFile(trx, requestNumber, file.key);
    if (results.length === 0) return;
    const bySender = !isRequestStaff(actor, request);
    const delivered = results.filter((r) => r.delivered).map((r) => r.id);
    const at = new Date();
    await repo.insertFileDownload(trx, { fileKey: file.key, requestNumber, userId: actor.id, bySender, at });
    if (bySender) await repo.markDownloaded(trx, delivered, actor.id, at);
    await recordEvent(trx, {
      type: delivered.length > 0 ? 'request.resultDownloaded' : 'request.undeliveredResultDownloaded',
      aggregateType: 'request',
      aggregateId: requestNumber,
      actor: actor.id,
      payload: {
        summary: `Downloaded ${file.name}.`,
        fileKey: file.key,
        resultIds: results.map((r) => r.id),
        // A staff read is staff business: the sender side's history leaves it out (senderVisibility.ts).
        bySender,
      },
    });
  };
  if (isTrx(db)) await record(db);
  else await db.transaction().execute(record);
}

registerFileReadRecorder(REQUEST_FILE_OWNER, recordResultFileRead);
