import { describeTags, REQUEST_TAGS } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Trx } from '../../db/database.js';
import type { AppDeps } from '../../http/deps.js';
import type { Actor } from '../auth/index.js';
import { insertCorrespondence } from '../correspondence/index.js';
import { notifySubmitters } from '../notifications/index.js';
import type { RequestRow } from '../requests/index.js';
import { publishRequestWebhook } from '../webhooks/index.js';
import { closeRequestRow } from './repository.js';

// Request settings autoCloseRequestWhenAllResultsAreQualityAssured: the QA of the last result
// awaiting it closes the request, as if the handler had closed it with the reason Completed, and
// the note says so in the words of the close action ('The request has been closed. ($0)').

const AUTO_CLOSE_TAGS = { closeReason: 'Completed' };

export async function closeRequestAutomatically(
  trx: Trx,
  deps: Pick<AppDeps, 'jobs' | 'live'>,
  actor: Actor,
  request: RequestRow,
): Promise<void> {
  const n = request.request_number;
  if (!(await closeRequestRow(trx, n, actor.id))) return;
  const note = `The request has been closed. (${describeTags(REQUEST_TAGS.close, AUTO_CLOSE_TAGS)})`;
  await insertCorrespondence(trx, {
    requestNumber: n,
    kind: 'note',
    body: { type: 'text', content: note },
    attachments: [],
    createdBy: actor.id,
  });
  await recordEvent(trx, {
    type: 'request.closed',
    aggregateType: 'request',
    aggregateId: n,
    actor: actor.id,
    payload: {
      summary: 'Closed the request: every result is quality assured.',
      tags: AUTO_CLOSE_TAGS,
      notice: note,
      changes: { status: { from: request.status, to: 'closed' } },
    },
  });
  await publishRequestWebhook(trx, deps, request, 'requestClosed', {
    requestNumber: n,
    tags: AUTO_CLOSE_TAGS,
    notice: note,
    automatic: true,
  });
  // The sender's submitters are told, as when a handler closes the request.
  await notifySubmitters(trx, deps.live, request, actor, {
    type: 'requestClosed',
    text: `Request ${n} has been closed: ${note}`,
  });
}
