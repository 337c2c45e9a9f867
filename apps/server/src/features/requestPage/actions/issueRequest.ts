import {
  CONTROL_CHARACTER_MESSAGE,
  hasControlCharacter,
  ISSUE_REQUEST_ADDRESS_MISSING,
  ISSUE_REQUEST_METHODS,
  type IssueRequestMethod,
  issueRequestAddress,
  sanitizeRichText,
} from '@dossier/core';
import { z } from 'zod';
import { recordEvent } from '../../../audit/events.js';
import { appUrlOf } from '../../../config.js';
import type { Trx } from '../../../db/database.js';
import { fieldsInvalid } from '../../../http/errors.js';
import { enqueueMail, type MailAttachment, newMessageId } from '../../../mail/outbox.js';
import { richTextToHtml, richTextToText, withAbsoluteLinks } from '../../../mail/richText.js';
import { insertCorrespondence, type StoredAttachment } from '../../correspondence/index.js';
import { notifySubmitters } from '../../notifications/index.js';
import {
  createRecipientAccess,
  fillAccessPlaceholders,
  mailPasscode,
  recordAccessSent,
  setAccessCorrespondence,
} from '../../recipientAccess/index.js';
import {
  canHandleRequest,
  findRequestFile,
  loadLetterContext,
  markRequestIssued,
  PASSCODE_LETTER_FILE,
  renderLetterOf,
  storeGeneratedRequestFile,
  touchRequest,
} from '../../requests/index.js';
import { publishRequestWebhook } from '../../webhooks/index.js';
import { completeOpenTasks } from '../../workflow/index.js';
import { defineRequestAction, type RequestActionContext } from './context.js';

// issueRequest (request actions): the handler sends the request to the recipient, really.
// Email: the message with the request letter (PDF) and the applicant's authority attached, queued in
// the mail outbox in this transaction. Fax: the same mail to the email-to-fax gateway of the
// configuration (FAX_GATEWAY_ADDRESS). Post: the letter is stored as a printable PDF, no mail.
// Each issue is recorded as correspondence whose delivery status the mail sender keeps up to date.
// issueRequestAgain (our addition, issue 20): once issued, the handler may issue the request again
// (after a bounce, a wrong fax number, a recipient changed on the request), with the same panel and
// checks; it is a new issued letter of its own, the history says "again", and the request keeps the
// latest issue's date and method.

const METHOD_NAMES: Record<IssueRequestMethod, string> = {
  email: 'email',
  faxNumber: 'fax',
  postal: 'post',
};

const body = z.object({
  issueRequestMethod: z.enum(ISSUE_REQUEST_METHODS, { error: 'Choose how to issue the request.' }),
  subject: z
    .string({ error: 'The subject is required.' })
    .trim()
    .min(1, 'The subject is required.')
    .max(500, 'The subject is at most 500 characters.')
    // The subject is a mail header: a line break would start a header of the handler's choosing.
    .refine((subject) => !hasControlCharacter(subject, { singleLine: true }), CONTROL_CHARACTER_MESSAGE),
  body: z.unknown().optional(),
  templateId: z.string().max(200).nullish(),
  /** The handler checked the details that differ from the directory entry with the recipient. */
  confirmRecipientDetails: z.boolean().optional(),
});

function offer(ctx: RequestActionContext) {
  if (!canHandleRequest(ctx.actor, ctx.request)) return 'forbidden' as const;
  if (ctx.request.status === 'closed') return { conflict: 'The request is closed.' };
  if (ctx.request.issued_at) return { conflict: 'The request has already been issued.' };
  return 'offered' as const;
}

function offerAgain(ctx: RequestActionContext) {
  if (!canHandleRequest(ctx.actor, ctx.request)) return 'forbidden' as const;
  if (ctx.request.status === 'closed') return { conflict: 'The request is closed.' };
  if (!ctx.request.issued_at) return { conflict: 'The request has not been issued yet.' };
  return 'offered' as const;
}

/** `Dossier <no-reply@dossier.example>` → `dossier.example`, for Message-IDs of our own. */
export function mailDomain(from: string): string {
  return /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'dossier.localhost';
}

/** `Dossier <no-reply@dossier.example>` → `no-reply@dossier.example`. */
export function mailAddress(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}

export function faxAddress(gateway: string, number: string): string {
  return gateway.replace('{number}', number.replace(/\D/g, ''));
}

function letterFileName(requestNumber: string) {
  return `Request ${requestNumber}.pdf`;
}

type IssueInput = z.infer<typeof body>;

export const issueRequest = defineRequestAction({
  name: 'issueRequest',
  body,
  offer,
  run: (trx, ctx, input) => issue(trx, ctx, input, false),
});

export const issueRequestAgain = defineRequestAction({
  name: 'issueRequestAgain',
  body,
  offer: offerAgain,
  run: (trx, ctx, input) => issue(trx, ctx, input, true),
});

async function issue(
  trx: Trx,
  { deps, actor, request }: RequestActionContext,
  input: IssueInput,
  again: boolean,
) {
  const n = request.request_number;
  const method = input.issueRequestMethod;
  // Mailed and faxed away from the app: a link written as a path gets the app's address.
  const written = withAbsoluteLinks(sanitizeRichText(input.body), appUrlOf(deps.config));
  const context = await loadLetterContext(trx, deps.config, actor, request);
  const address = issueRequestAddress(method, context.recipient);
  const errors: Record<string, string> = {};
  if (!address) errors.issueRequestMethod = ISSUE_REQUEST_ADDRESS_MISSING[method];
  if (!richTextToText(written).trim()) errors.body = 'The message body is required.';
  const differences = Object.keys(context.recipient.directoryDifferences ?? {});
  if (differences.length > 0 && !input.confirmRecipientDetails)
    errors.confirmRecipientDetails = `The recipient's ${differences.join(', ')} differ from the directory entry: confirm them with the recipient before issuing.`;
  if (Object.keys(errors).length > 0) throw fieldsInvalid(errors);
  if (differences.length > 0)
    await recordEvent(trx, {
      type: 'request.recipientDetailsConfirmed',
      aggregateType: 'request',
      aggregateId: n,
      actor: actor.id,
      payload: {
        summary: `Confirmed the recipient's ${differences.join(', ')}, which differ from the directory.`,
      },
    });
  const to = address as string;
  const at = new Date();
  // The recipient's link and passcode (issue 34): in the letter, the passcode by email in a mail of
  // its own.
  const access = await createRecipientAccess(trx, deps.config, {
    request,
    method,
    sentTo: to,
    createdBy: actor.id,
    at,
  });
  const doc = fillAccessPlaceholders(written, access, method);
  const text = richTextToText(doc).trim();

  const pdf = await renderLetterOf(context, { date: at, subject: input.subject, body: text });
  const letter = await storeGeneratedRequestFile(deps.files, trx, actor, n, {
    name: letterFileName(n),
    contentType: 'application/pdf',
    bytes: pdf,
    // Printed with the passcode (fax, post): never the sender side's to read.
    classification: access && method !== 'email' ? PASSCODE_LETTER_FILE : 'requestLetter',
  });
  const attachments: MailAttachment[] = [
    { fileKey: letter.key, name: letter.name, contentType: letter.contentType },
  ];
  const authorityKey = context.applicant.authority?.key;
  const authority = authorityKey ? await findRequestFile(trx, n, authorityKey) : undefined;
  if (authority)
    attachments.push({ fileKey: authority.key, name: authority.name, contentType: authority.content_type });

  let outboxId: string | null = null;
  let messageId: string | null = null;
  const from = { displayName: context.senderName, email: mailAddress(deps.config.mail.from) };
  // The record of the letter never holds the passcode: the sender side reads issued letters.
  const recorded = access
    ? fillAccessPlaceholders(written, { ...access, passcode: '(printed in the letter)' }, method)
    : doc;
  if (method !== 'postal') {
    messageId = newMessageId(mailDomain(deps.config.mail.from));
    outboxId = await enqueueMail(trx, {
      to: method === 'email' ? to : faxAddress(deps.config.mail.faxGatewayAddress, to),
      subject: input.subject,
      text,
      html: richTextToHtml(doc),
      attachments,
      messageId,
      requestNumber: n,
      // A fax carries the passcode in its text: once sent, the outbox keeps the letter's record.
      ...(access && method !== 'email' ? { textAfterSend: richTextToText(recorded).trim() } : {}),
    });
  }
  const stored: StoredAttachment[] = attachments.map((a) => ({
    key: a.fileKey,
    name: a.name,
    contentType: a.contentType,
  }));
  const correspondenceId = await insertCorrespondence(trx, {
    requestNumber: n,
    kind: 'issuedRequest',
    issueRequestMethod: method,
    from,
    to: {
      displayName: context.recipient.name,
      ...(method === 'email'
        ? { email: to }
        : method === 'faxNumber'
          ? { phone: to }
          : { postalAddress: to }),
    },
    subject: input.subject,
    body: { type: 'richText', content: recorded },
    attachments: stored,
    messageId,
    mailOutboxId: outboxId,
    // A posted letter waits for someone to print it; mail waits for the sender.
    messageDeliveryStatus: method === 'postal' ? 'printReady' : 'queued',
    createdBy: actor.id,
    createdAt: at,
  });

  if (access) {
    await setAccessCorrespondence(trx, access.accessId, correspondenceId);
    if (method === 'email') await mailPasscode(trx, to, n, context.senderName, access.passcode);
    await recordAccessSent(trx, n, actor.id, access, method, to);
  }
  await markRequestIssued(trx, n, method, at);
  // Issuing is the work of the open issueRequest tasks: each is completed (pushed, recorded).
  const tasksCompleted = await completeOpenTasks(
    trx,
    { live: deps.live },
    n,
    { types: ['issueRequest'] },
    actor.id,
    at,
  );
  const summary = `Issued the request${again ? ' again' : ''} to ${context.recipient.name} by ${METHOD_NAMES[method]} (${to}).`;
  await recordEvent(trx, {
    type: again ? 'request.issuedAgain' : 'request.issued',
    aggregateType: 'request',
    aggregateId: n,
    actor: actor.id,
    payload: {
      summary,
      messageId: correspondenceId,
      templateId: input.templateId ?? undefined,
      ...(again ? {} : { changes: { status: { from: request.status, to: 'open' } } }),
    },
  });
  await touchRequest(trx, n, actor.id, at);
  await publishRequestWebhook(trx, deps, request, 'requestIssued', {
    requestNumber: n,
    scope: request.scope,
    issuedAt: at.toISOString(),
    issueRequestMethod: method,
    summary,
  });
  // The sender's side learns that its request is on its way.
  await notifySubmitters(trx, deps.live, request, actor, {
    type: 'requestIssued',
    text: `Request ${n} has been issued${again ? ' again' : ''} to ${context.recipient.name}.`,
  });
  return { messageId: correspondenceId, letter: { key: letter.key, name: letter.name }, tasksCompleted };
}
