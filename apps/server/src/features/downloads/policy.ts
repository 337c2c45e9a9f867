import type { Features } from '@dossier/core';
import { forbidden } from '../../http/errors.js';
import { type Actor, hasPermission } from '../auth/index.js';
import { visibleRequests } from '../requests/index.js';
import type { RequestCondition } from './repository.js';

// Who may use Download Files (the menu): the download-tracking feature must be on and the
// actor must hold file:view:markAsDownloaded and request:view:content (a result's file is request
// content). The request-results report, over the same data, needs the same feature and content
// permission (reports/requestResults.ts). A result is listed and downloadable only where the actor
// holds both permissions for its request.

export const DOWNLOAD_PERMISSIONS = ['file:view:markAsDownloaded', 'request:view:content'] as const;

/** 403 unless the feature is on and the actor holds both permissions somewhere. */
export function assertMayUseDownloads(actor: Actor, features: Features): void {
  if (!features.resultFileDownloadTracking) throw forbidden('Result download tracking is switched off.');
  for (const permission of DOWNLOAD_PERMISSIONS) if (!hasPermission(actor, permission)) throw forbidden();
}

/** The requests (a SQL condition on `requests`) whose results the actor may download. */
export function mayDownloadFrom(actor: Actor): RequestCondition {
  const mark = visibleRequests(actor, DOWNLOAD_PERMISSIONS[0]);
  const content = visibleRequests(actor, DOWNLOAD_PERMISSIONS[1]);
  return (eb) => eb.and([mark(eb), content(eb)]);
}
