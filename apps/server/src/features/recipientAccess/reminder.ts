import type { RichTextDoc, RichTextNode } from '@dossier/core';
import type { DbOrTrx, Trx } from '../../db/database.js';
import { getNearestScopeEntry } from '../configuration/index.js';
import type { RequestRow } from '../requests/index.js';
import { accessState, type RecipientLinkConfig, recipientUrl } from './access.js';
import * as repo from './repository.js';
import { openSecrets, sealedUnderOtherKey } from './seal.js';
import { mailPasscode } from './staff.js';

// What a reminder to the recipient (the workflow's autoReminder) says of the recipient's page. The
// link of the request's newest access is printed again from its sealed value (seal.ts) while it
// works; by email the passcode goes in a second mail, never with the link. Otherwise:
// - "notPrintable": the link works but cannot be printed (made before links were sealed, or sealed
//   under a key this instance does not hold): the reminder points to the link of the request;
// - "none": no working link (revoked, expired, locked, never made): the reminder offers no link,
//   since staff chose that or the recipient needs a new one (Re-send), and asks for a reply.

export type ReminderLink =
  | { kind: 'link'; accessId: string; url: string; passcode: string }
  | { kind: 'notPrintable'; otherKey?: boolean }
  | { kind: 'none' };

export const REMINDER_PASSCODE_APART = 'sent to you in a separate mail';
export const REMINDER_WORDING = {
  notPrintable: 'You can answer online with the link and passcode of our request.',
  none: 'Please reply quoting the request number.',
} as const;
const PLACEHOLDER = '${request.recipientAccess.';

/** What a reminder mail needs of the request's link: one call for the workflow's reminder. */
export interface ReminderLinkUse {
  /** The link is working but sealed under a key this instance does not hold. */
  sealedElsewhere: boolean;
  /** The template data `request.recipientAccess`. */
  data: { url: string; passcode: string };
  /** The reminder template made fit for the link (withReminderLink). */
  fit(doc: RichTextDoc): RichTextDoc;
  /** The sentence a reminder without a template ends with; none when there is no link to speak of. */
  sentence: string | undefined;
  /** Sends the passcode in its own mail, after the reminder, when the reminder carried the link. */
  mailPasscode(trx: Trx, to: string): Promise<void>;
}

export async function reminderLinkOf(
  db: DbOrTrx,
  config: RecipientLinkConfig,
  request: Pick<RequestRow, 'request_number' | 'status' | 'scope'>,
): Promise<ReminderLinkUse> {
  const link = await reminderLink(db, config, request);
  return {
    sealedElsewhere: link.kind === 'notPrintable' && link.otherKey === true,
    data: reminderLinkData(link),
    fit: (doc) => withReminderLink(doc, link),
    sentence: link.kind === 'none' ? undefined : reminderLinkSentence(link),
    mailPasscode: (trx, to) => mailReminderPasscode(trx, to, request, link),
  };
}

async function reminderLink(
  db: DbOrTrx,
  config: RecipientLinkConfig,
  request: Pick<RequestRow, 'request_number' | 'status'>,
): Promise<ReminderLink> {
  const [newest] = await repo.listAccessesOfRequest(db, request.request_number);
  if (!newest || accessState(newest, request) !== 'open') return { kind: 'none' };
  const secrets = openSecrets(config.recipientLinkKeys, newest.id, newest.sealed);
  // Sealed under a key this instance does not hold: instances not given the same RECIPIENT_LINK_KEY.
  if (!secrets)
    return { kind: 'notPrintable', otherKey: sealedUnderOtherKey(config.recipientLinkKeys, newest.sealed) };
  return {
    kind: 'link',
    accessId: newest.id,
    url: recipientUrl(config, secrets.token),
    passcode: secrets.passcode,
  };
}

/** The template data `request.recipientAccess` of a reminder by email: the passcode is elsewhere. */
function reminderLinkData(link: ReminderLink) {
  return link.kind === 'link'
    ? { url: link.url, passcode: REMINDER_PASSCODE_APART }
    : { url: '', passcode: '' };
}

const textOf = (node: RichTextNode): string =>
  (node.text ?? '') + (node.content ?? []).map((child) => textOf(child)).join('');

const paragraph = (text: string): RichTextNode => ({ type: 'paragraph', content: [{ type: 'text', text }] });

/** The sentence a reminder without a template ends with. */
export function reminderLinkSentence(link: ReminderLink): string {
  return link.kind === 'link'
    ? `You can answer online: ${link.url} (the passcode is ${REMINDER_PASSCODE_APART}).`
    : REMINDER_WORDING[link.kind];
}

/**
 * The reminder template made fit for the link, before it is rendered: with a link, a template that
 * does not place it gets a closing paragraph with it; without one, the paragraphs placing it give
 * way to one sentence saying what to do instead (blank placeholders would read as a broken letter).
 */
export function withReminderLink(doc: RichTextDoc, link: ReminderLink): RichTextDoc {
  const blocks = doc.content ?? [];
  const places = (node: RichTextNode) => textOf(node).includes(PLACEHOLDER);
  if (link.kind === 'link') {
    if (blocks.some((b) => textOf(b).includes(`${PLACEHOLDER}url`))) return doc;
    return { ...doc, content: [...blocks, paragraph(reminderLinkSentence(link))] };
  }
  const first = blocks.findIndex(places);
  if (first < 0) return doc;
  const content = blocks.flatMap((block, i) =>
    i === first ? [paragraph(REMINDER_WORDING[link.kind])] : places(block) ? [] : [block],
  );
  return { ...doc, content };
}

/** The second mail of a reminder that carried the link: the passcode alone, to the same address. */
async function mailReminderPasscode(
  trx: Trx,
  to: string,
  request: Pick<RequestRow, 'request_number' | 'scope'>,
  link: ReminderLink,
) {
  if (link.kind !== 'link') return;
  const scope = await getNearestScopeEntry(trx, request.scope);
  const senderName = scope?.legalEntity || scope?.name || request.scope;
  await mailPasscode(trx, to, request.request_number, senderName, link.passcode, 'reminder');
}
