import type { RequestChangedMessage } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { publishLive } from '../../live/hub.js';
import { listViewers, requestVersionOf } from './repository.js';

// Whoever has a request open follows it live: after every committed change of the request (each
// writes a request event, see audit/events.ts) its viewers are told to fetch the page again. The
// message is small on purpose; the page fetches its own view, with its own access checks. It
// carries the request's version as the changing transaction saw it when it recorded the event:
// a change bumps the version after its events (touchRequest), so a page whose copy has a greater
// version got it after that transaction committed (its own action's answer) and need not fetch.

/** Tells the users who have the request open that it changed (delivered after the commit). */
export async function pushRequestChanged(
  trx: DbOrTrx,
  requestNumber: string,
  by: string | null,
): Promise<void> {
  const viewers = await listViewers(trx, requestNumber);
  if (viewers.length === 0) return;
  const version = await requestVersionOf(trx, requestNumber);
  const message: RequestChangedMessage = { $type: 'requestChanged', requestNumber, by, version };
  await publishLive(
    trx,
    viewers.map((v) => v.id),
    message,
  );
}
