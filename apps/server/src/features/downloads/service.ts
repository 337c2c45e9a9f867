import type { DownloadFileItem, DownloadFilesView, Features } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Db } from '../../db/database.js';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import type { Actor } from '../auth/actor.js';
import { loadVisibleRequest } from '../requests/access.js';
import { assertMayUseDownloads, mayDownloadFrom } from './policy.js';
import * as repo from './repository.js';

// Download files (spec 2): the quality-assured results (see repository.ts for which and in what
// order), and marking one downloaded. The file itself is then read through GET /files/{key}, which
// checks visibility again.

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
    itemTypes: Array.isArray(row.item_types) ? (row.item_types as DownloadFileItem['itemTypes']) : [],
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
  return {
    $type: 'downloadFiles',
    title: 'Download Files',
    maxNumberResultsFetched: options.maxResults,
    results: rows.map(toItem),
  };
}

/**
 * Marks a quality-assured result downloaded by the actor, once: 404 for an unknown result, 403 when
 * its request is out of sight or out of the actor's download permissions, 409 when it is not (or no
 * longer) downloadable. The request's version is left alone on purpose: a download changes nothing a
 * handler edits, so it must not make their open edit stale; the request's history records it.
 */
export async function markResultDownloaded(
  db: Db,
  actor: Actor,
  resultId: string,
  options: DownloadsOptions,
) {
  assertMayUseDownloads(actor, options.features);
  return db.transaction().execute(async (trx) => {
    const result = await repo.findResultForUpdate(trx, resultId, mayDownloadFrom(actor));
    if (!result) throw notFound('No such result.');
    await loadVisibleRequest(trx, actor, result.request_number);
    if (!result.may_download) throw forbidden();
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
    return {
      resultId,
      downloadedAt: at.toISOString(),
      downloadedBy: actor.id,
      downloadedByDisplayName: actor.name,
    };
  });
}
