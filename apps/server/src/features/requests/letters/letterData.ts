import { type Applicant, type ContentLine, type RequestRecipient, requestContentLines } from '@dossier/core';
import { type AppAddress, appUrlOf } from '../../../config.js';
import type { DbOrTrx } from '../../../db/database.js';
import type { Actor } from '../../auth/index.js';
import { getNearestScopeEntry } from '../../configuration/index.js';
import { loadContentItemTypes } from '../contentItemTypes.js';
import type { RequestRow } from '../repository.js';
import { findUserName } from './repository.js';
import { renderRequestLetterPdf } from './requestLetterPdf.js';

// What an issued request is written from: the request's parts read from its row, the names the
// configuration gives (sending organisation, item types), and the data templates are rendered over
// (TEMPLATE_DATA_SCHEMA in @dossier/core placeholders: product, now, request.*, user).

export interface LetterContext {
  requestNumber: string;
  senderName: string;
  applicant: Applicant;
  recipient: RequestRecipient;
  /** What is asked, as the letter prints it. */
  contentLines: ContentLine[];
  /** The sender's additional instructions to the recipient, printed under what is asked. */
  instructions: string | null;
  /** The data for renderTemplate / renderRichTextTemplate. */
  templateData: Record<string, unknown>;
}

const dateOnly = (value: Date | string | null | undefined) =>
  value ? new Date(value).toISOString() : undefined;

export async function loadLetterContext(
  db: DbOrTrx,
  config: AppAddress,
  actor: Actor,
  request: RequestRow,
): Promise<LetterContext> {
  const { applicant, recipient, content } = request;
  const scope = await getNearestScopeEntry(db, request.scope);
  const senderName = scope?.legalEntity || scope?.name || request.scope;
  const itemTypes = await loadContentItemTypes(db, request.scope, content);
  const items = (content.itemTypes ?? []).map((item) => {
    const entry = itemTypes.find((e) => e.id === item.id);
    return { id: item.id, name: entry?.name ?? item.name ?? item.id, type: item.id };
  });
  const submittedByName = request.submitted_by ? await findUserName(db, request.submitted_by) : undefined;
  const base = appUrlOf(config);
  const templateData: Record<string, unknown> = {
    product: 'Dossier',
    now: new Date().toISOString(),
    request: {
      requestNumber: request.request_number,
      status: request.status,
      url: `${base}/requests/${request.request_number}`,
      // Markers filled in when the request is issued (recipientAccess/letterText.ts): the link exists
      // only then.
      recipientAccess: {
        url: "[link to the recipient's page]",
        passcode: "[passcode of the recipient's page]",
      },
      submittedAt: dateOnly(request.submitted_at),
      issuedAt: dateOnly(request.issued_at),
      closedAt: dateOnly(request.closed_at),
      externalReference: request.reference_number ?? undefined,
      notes: content.additionalInstructions ?? undefined,
      sender: { name: senderName, scopePath: request.scope, legalEntity: scope?.legalEntity ?? '' },
      recipient: {
        name: recipient.name,
        email: recipient.contact?.email || recipient.email || '',
        phone: recipient.phone,
        fax: recipient.fax ?? '',
        address: recipient.postalAddress || recipient.streetAddress || '',
      },
      applicant: {
        name: applicant.name,
        dateOfBirth: applicant.dateOfBirth ?? undefined,
        address: applicant.address ?? undefined,
        country: applicant.country ?? undefined,
        reference1: applicant.reference1 ?? undefined,
        reference1Type: applicant.reference1Type ?? undefined,
        reference2: applicant.reference2 ?? undefined,
        reference2Type: applicant.reference2Type ?? undefined,
      },
      items,
      submittedBy: request.submitted_by
        ? { id: request.submitted_by, name: submittedByName ?? request.submitted_by }
        : undefined,
    },
    user: { id: actor.id, name: actor.name, email: actor.email },
  };
  return {
    requestNumber: request.request_number,
    senderName,
    applicant,
    recipient,
    contentLines: requestContentLines(content, itemTypes),
    instructions: content.additionalInstructions?.trim() || null,
    templateData,
  };
}

/**
 * The letter PDF of a request, written from its context: the whole request, or (`particularsOnly`,
 * a Re-send's short letter) who writes, to whom and about whom, without what is asked.
 */
export function renderLetterOf(
  context: LetterContext,
  letter: { date: Date; subject: string; body: string; particularsOnly?: boolean },
): Promise<Uint8Array> {
  const { applicant, recipient } = context;
  return renderRequestLetterPdf({
    senderName: context.senderName,
    date: letter.date,
    recipientName: recipient.name,
    recipientContact: recipient.contact?.name || null,
    recipientAddress: recipient.postalAddress || recipient.streetAddress,
    subject: letter.subject,
    body: letter.body,
    requestNumber: context.requestNumber,
    applicant: {
      name: applicant.name,
      dateOfBirth: applicant.dateOfBirth,
      address: letter.particularsOnly ? undefined : applicant.address,
      reference: applicant.reference1,
    },
    content: letter.particularsOnly ? [] : context.contentLines,
    instructions: letter.particularsOnly ? null : context.instructions,
  });
}
