import {
  type RequestPreview,
  type RichTextNode,
  richTextPlain,
  senderSeesCorrespondenceContent,
} from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { htmlToText } from '../../mail/incoming/sanitizeHtml.js';
import { getScopeEntry } from '../configuration/index.js';
import { findUserName, latestCorrespondence } from './previewRepository.js';
import type { RequestRow } from './repository.js';

// The hover preview of a request in lists (GET /requests/{n}/preview): a few lines about the
// request and its newest correspondence. Indexed reads (previewRepository.ts); the caller has checked visibility.

const EXCERPT = 200;

const shorten = (text: string, max = EXCERPT) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

function bodyText(body: unknown): string {
  const b = body as { type?: string; content?: unknown } | null;
  if (!b) return '';
  if (b.type === 'richText' && b.content && typeof b.content === 'object')
    return richTextPlain(b.content as RichTextNode);
  if (typeof b.content === 'string') return b.type === 'html' ? htmlToText(b.content) : b.content;
  return '';
}

/**
 * `staff`: the actor is staff of the request. The sender side sees only messages staff accepted, and
 * of a received message not shared with it no excerpt (senderSeesCorrespondenceContent).
 */
export async function buildRequestPreview(
  db: DbOrTrx,
  row: RequestRow,
  staff: boolean,
): Promise<RequestPreview> {
  const [scopeEntry, onBehalf, latest] = await Promise.all([
    getScopeEntry(db, row.scope),
    row.submitted_on_behalf_of ? findUserName(db, row.submitted_on_behalf_of) : undefined,
    latestCorrespondence(db, row.request_number, staff),
  ]);
  const { applicant, recipient, content } = row;
  const sender = [
    scopeEntry?.name ?? row.scope,
    row.reference_number ? `ref. ${row.reference_number}` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  const itemTypes = (content.itemTypes ?? []).map((i) => i.name || i.id).join(', ');
  return {
    request: {
      requestNumber: row.request_number,
      status: row.status,
      senderSummary: onBehalf ? `${sender} (on behalf of ${onBehalf})` : sender,
      applicant: {
        name: applicant.name ?? row.applicant_name,
        dateOfBirth: applicant.dateOfBirth ?? null,
        reference1: applicant.reference1 ?? null,
      },
      recipient: { name: recipient.name, phone: recipient.phone || null, email: recipient.email ?? null },
      contentSummary: shorten(
        [itemTypes, content.additionalInstructions ?? ''].filter((s) => s.trim()).join(' — '),
      ),
      submittedAt: row.submitted_at.toISOString(),
      lastActivityAt: row.last_activity_at.toISOString(),
    },
    mostRecentCorrespondence: latest
      ? {
          kind: latest.kind,
          createdAt: latest.created_at.toISOString(),
          createdByDisplayName: latest.author,
          subject: latest.subject,
          excerpt:
            staff ||
            senderSeesCorrespondenceContent({
              kind: latest.kind,
              unverifiedSender: latest.unverified_sender,
              sharedWithSender: latest.shared_with_sender_at !== null,
            })
              ? shorten(bodyText(latest.body).replace(/\s+/g, ' ').trim())
              : '',
        }
      : null,
  };
}
