import { recordEvent } from '../../audit/events.js';
import type { Db } from '../../db/database.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Actor } from '../auth/actor.js';
import { loadVisibleRequest } from '../requests/access.js';
import { visibleRequests } from '../requests/policy.js';
import * as repo from './repository.js';

// Download files (spec 2): quality-assured results not yet downloaded, and marking one downloaded.
// The file itself is then read through GET /files/{key}, which checks visibility again.

/** The most results the list shows; the page tells the user it is capped. */
export const MAX_NUMBER_RESULTS_FETCHED = 100;

export interface DownloadFileItem {
  resultId: string;
  requestNumber: string;
  subject: string;
  file: { key: string; name: string | null };
  itemTypes: { id: string; name: string }[];
  qualityAssuredAt: string | null;
  qualityAssuredBy: string | null;
  qualityAssuredByDisplayName: string | null;
  downloadedAt: string | null;
  downloadedBy: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toItem(row: repo.DownloadableRow): DownloadFileItem {
  return {
    resultId: row.id,
    requestNumber: row.request_number,
    subject: row.applicant_name,
    file: { key: row.file_key, name: row.file_name },
    itemTypes: Array.isArray(row.item_types) ? (row.item_types as DownloadFileItem['itemTypes']) : [],
    qualityAssuredAt: iso(row.quality_assured_at),
    qualityAssuredBy: row.quality_assured_by,
    qualityAssuredByDisplayName: row.quality_assured_by_name,
    downloadedAt: iso(row.downloaded_at),
    downloadedBy: row.downloaded_by,
  };
}

export async function getDownloadFilesView(db: Db, actor: Actor) {
  const rows = await repo.listDownloadableResults(db, visibleRequests(actor), MAX_NUMBER_RESULTS_FETCHED);
  return {
    $type: 'downloadFiles',
    title: 'Download Files',
    maxNumberResultsFetched: MAX_NUMBER_RESULTS_FETCHED,
    results: rows.map(toItem),
  };
}

/**
 * Marks a quality-assured result downloaded by the actor, once: 404 for an unknown result, 403 when
 * its request is out of sight, 409 when it is not (or no longer) downloadable. The request's version
 * is left alone on purpose: a download changes nothing a handler edits, so it must not make their
 * open edit stale; the request's history records it.
 */
export async function markResultDownloaded(db: Db, actor: Actor, resultId: string) {
  return db.transaction().execute(async (trx) => {
    const result = await repo.findResultForUpdate(trx, resultId);
    if (!result) throw notFound('No such result.');
    await loadVisibleRequest(trx, actor, result.request_number);
    if (result.discarded_at) throw conflict('The result has been discarded.');
    if (!result.quality_assured_at) throw conflict('The result has not been quality-assured yet.');
    if (result.downloaded_at) throw conflict('The result has already been downloaded.');
    const at = new Date();
    await repo.markDownloaded(trx, resultId, actor.id, at);
    await recordEvent(trx, {
      type: 'resultDownloaded',
      aggregateType: 'request',
      aggregateId: result.request_number,
      actor: actor.id,
      payload: { summary: `${actor.name} downloaded a result.`, resultId },
    });
    return { resultId, downloadedAt: at.toISOString(), downloadedBy: actor.id };
  });
}
