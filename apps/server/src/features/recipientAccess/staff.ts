import type { RecipientAccessItem } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { DbOrTrx, Trx } from '../../db/database.js';
import { conflict, notFound } from '../../http/errors.js';
import { enqueueMail } from '../../mail/outbox.js';
import type { RequestRow } from '../requests/index.js';
import { accessState, createRecipientAccess, type NewAccess, type RecipientLinkConfig } from './access.js';
import * as repo from './repository.js';

// The staff side of the recipient's accesses: the mails that carry link and passcode apart, what
// the request page shows of each access, and Revoke and Re-send (a new link and passcode; the old
// ones stop working, a locked access among them).

const METHOD_NAMES: Record<string, string> = { email: 'email', faxNumber: 'fax', postal: 'post' };

const LINK_IS_IN = {
  request: 'Open the link in the request we sent you in a separate mail',
  reminder: 'Open the link in our reminder about this request, sent to you in a separate mail',
};

/**
 * The second mail of an issue (or a reminder) by email: the passcode alone, no link, so that a
 * forwarded or quoted letter opens nothing by itself.
 */
export async function mailPasscode(
  trx: Trx,
  to: string,
  requestNumber: string,
  senderName: string,
  passcode: string,
  linkIn: keyof typeof LINK_IS_IN = 'request',
) {
  const text = [
    `The passcode for request ${requestNumber} from ${senderName} is: ${passcode}`,
    `${LINK_IS_IN[linkIn]}, then enter this passcode to answer online.`,
    'If you did not expect this mail, you can ignore it.',
  ].join('\n\n');
  await enqueueMail(trx, {
    to,
    subject: `Passcode for request ${requestNumber}`,
    text,
    requestNumber,
    // Once it went out the database keeps no passcode but its hash and its sealed value.
    textAfterSend: `The passcode for request ${requestNumber} from ${senderName} was sent to this address. It is not kept once sent: ask for a new link and passcode if it was lost.`,
  });
}

/** A mail with the link alone (Re-send); the passcode follows in its own mail. */
async function mailLink(trx: Trx, to: string, requestNumber: string, senderName: string, url: string) {
  const text = [
    `You can answer request ${requestNumber} from ${senderName} online: ${url}`,
    'The passcode comes in a separate mail. Links sent before this one no longer work.',
  ].join('\n\n');
  await enqueueMail(trx, { to, subject: `Answer request ${requestNumber} online`, text, requestNumber });
}

export async function recordAccessSent(
  trx: Trx,
  requestNumber: string,
  actorId: string | null,
  access: NewAccess,
  method: string,
  sentTo: string,
  resent = false,
) {
  await recordEvent(trx, {
    type: 'request.recipientAccessSent',
    aggregateType: 'request',
    aggregateId: requestNumber,
    actor: actorId,
    payload: {
      summary: `${resent ? 'Re-sent' : 'Sent'} the recipient's link and passcode by ${METHOD_NAMES[method] ?? method} (${sentTo}).`,
      accessId: access.accessId,
    },
  });
}

export async function listAccessItems(db: DbOrTrx, request: RequestRow): Promise<RecipientAccessItem[]> {
  const rows = await repo.listAccessesOfRequest(db, request.request_number);
  const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
  return rows.map((row) => ({
    accessId: row.id,
    method: row.method,
    sentTo: row.sent_to,
    sentAt: new Date(row.created_at).toISOString(),
    firstOpenedAt: iso(row.first_opened_at),
    lastUsedAt: iso(row.last_used_at),
    expiresAt: new Date(row.expires_at).toISOString(),
    lockedAt: iso(row.locked_at),
    revokedAt: iso(row.revoked_at),
    status: accessState(row, request),
  }));
}

export async function revokeRecipientAccess(
  trx: Trx,
  request: RequestRow,
  actorId: string,
  accessId: string,
) {
  const n = request.request_number;
  const access = await repo.findAccessOfRequest(trx, n, accessId);
  if (!access) throw notFound('No such link of this request.');
  const revoked = await repo.revokeAccesses(trx, n, actorId, new Date(), accessId);
  if (revoked.length === 0) throw conflict('The link is already revoked.');
  await repo.deleteSessionsOfAccesses(trx, revoked);
  await recordEvent(trx, {
    type: 'request.recipientAccessRevoked',
    aggregateType: 'request',
    aggregateId: n,
    actor: actorId,
    payload: { summary: `Revoked the recipient's link sent to ${access.sent_to}.`, accessId },
  });
}

/**
 * Re-send by email: a new link and passcode, each in its own mail, to the address the newest link
 * went to by email, else to the recipient's email. A request issued by fax or post is re-sent as a
 * new letter the same way (requestPage's resendLetter.ts).
 */
export async function resendRecipientAccess(
  trx: Trx,
  config: RecipientLinkConfig,
  request: RequestRow,
  actorId: string,
  senderName: string,
) {
  if (request.status === 'closed') throw conflict('The request is closed.');
  if (!request.issued_at) throw conflict('The request has not been issued yet.');
  const [latest] = await repo.listAccessesOfRequest(trx, request.request_number);
  const to =
    latest?.method === 'email'
      ? latest.sent_to
      : request.recipient.contact?.email || request.recipient.email || '';
  if (!to) throw conflict('The recipient has no email address: issue the request again by fax or post.');
  const at = new Date();
  const access = await createRecipientAccess(trx, config, {
    request,
    method: 'email',
    sentTo: to,
    createdBy: actorId,
    at,
  });
  if (!access) throw conflict("The recipient's page is turned off in the request settings.");
  await mailLink(trx, to, request.request_number, senderName, access.url);
  await mailPasscode(trx, to, request.request_number, senderName, access.passcode);
  await recordAccessSent(trx, request.request_number, actorId, access, 'email', to, true);
  return { accessId: access.accessId };
}
