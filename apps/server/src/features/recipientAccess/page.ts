import {
  CURRENCIES,
  DEFAULT_RECIPIENT_UPLOAD_LIMIT_MB,
  type RecipientPageView,
  requestContentLines,
} from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { getNearestScopeEntry, getRequestSettings } from '../configuration/index.js';
import { loadContentItemTypes, type RequestRow } from '../requests/index.js';
import * as repo from './repository.js';

// What the recipient sees once the passcode was right: who asks, the applicant's particulars needed
// to find the records, every item asked with its questions and answers, the letter and the
// authority, and what was sent through this link so far. Nothing else of the request (no tasks,
// no other correspondence, no results or invoices, no staff names).

const REFERENCE_TYPES: Record<string, string> = {
  policyNumber: 'Policy number',
  claimNumber: 'Claim number',
  medicareNumber: 'Medicare number',
  other: 'Reference',
  '': 'Reference',
};

export async function uploadLimitBytes(db: DbOrTrx, scope: string): Promise<number> {
  const settings = await getRequestSettings(db, scope);
  return (settings?.recipientUploadLimitMb ?? DEFAULT_RECIPIENT_UPLOAD_LIMIT_MB) * 1_048_576;
}

export function passcodeView(token: string): RecipientPageView {
  return { $type: 'recipientPage', title: 'Answer a records request', token, state: 'passcode' };
}

/** The items as the letter prints them, grouped under each item asked. */
function itemsOf(lines: ReturnType<typeof requestContentLines>) {
  const items: { name: string; lines: string[] }[] = [];
  for (const line of lines) {
    if (line.kind === 'itemType' || line.kind === 'additionalQuestions' || items.length === 0) {
      items.push({ name: line.label, lines: [] });
      if (line.kind === 'itemType' || line.kind === 'additionalQuestions') continue;
    }
    const text = line.answer ? `${line.label}: ${line.answer}` : line.label;
    items[items.length - 1]?.lines.push(`${line.number ? `${line.number} ` : ''}${text}`);
  }
  return items;
}

export async function openView(
  db: DbOrTrx,
  token: string,
  access: repo.AccessRow,
  request: RequestRow,
): Promise<RecipientPageView> {
  const n = request.request_number;
  const { applicant, recipient, content } = request;
  const [scope, itemTypes, letter, sent, limit] = await Promise.all([
    getNearestScopeEntry(db, request.scope),
    loadContentItemTypes(db, request.scope, content),
    repo.findLetterAttachments(db, n, access.correspondence_id),
    repo.listSentThrough(db, n, access.id),
    uploadLimitBytes(db, request.scope),
  ]);
  const payees = await repo.listPayeesLike(db, recipient.name, recipient.email ?? null);
  const references = [
    [applicant.reference1Type, applicant.reference1],
    [applicant.reference2Type, applicant.reference2],
  ]
    .filter(([, value]) => value)
    .map(([type, value]) => `${REFERENCE_TYPES[type ?? ''] ?? type ?? 'Reference'}: ${value}`);
  const pdf = letter.find((a) => a.contentType === 'application/pdf' && a.name.startsWith('Request '));
  return {
    $type: 'recipientPage',
    title: `Request ${n}`,
    token,
    state: 'open',
    request: {
      requestNumber: n,
      sender: scope?.legalEntity || scope?.name || request.scope,
      recipient: recipient.name,
      applicant: { name: applicant.name, dateOfBirth: applicant.dateOfBirth ?? null, references },
      items: itemsOf(requestContentLines(content, itemTypes)),
      instructions: content.additionalInstructions?.trim() || null,
      letter: pdf ? { key: pdf.key, name: pdf.name } : null,
      authority: applicant.authority?.key
        ? { key: applicant.authority.key, name: applicant.authority.name ?? 'Authority' }
        : null,
      payees: payees.map((p) => ({ payeeId: p.id, name: p.name })),
      currencies: CURRENCIES.map((c) => ({ code: c.code, name: c.name })),
      expiresAt: new Date(access.expires_at).toISOString(),
      sent: sent.map((e) => ({
        at: new Date(e.created_at).toISOString(),
        summary: String((e.payload as { summary?: unknown }).summary ?? ''),
      })),
      uploadLimitBytes: limit,
      uploadedBytes: Number(access.uploaded_bytes),
    },
  };
}
