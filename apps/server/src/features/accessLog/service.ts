import { ACCESS_PAGE_SIZE, type AccessEntry, parseAccessCursor } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { type Actor, scopesWithPermission } from '../auth/index.js';
import { loadVisibleRequest } from '../requests/index.js';
import { renderDisclosuresPdf } from './disclosuresPdf.js';
import { assertMayViewAccessLog } from './policy.js';
import * as repo from './repository.js';

/** A recipient's reads, by the address its link and passcode went to. */
const recipientReader = (sentTo: string | null) =>
  sentTo ? `The recipient, through the link sent to ${sentTo}` : "The recipient's page";

/** The Access tab: who read the request's personal data, a page at a time (404/403 as the page). */
export async function getRequestAccess(
  db: DbOrTrx,
  actor: Actor,
  requestNumber: string,
  page: { pageOffset: number; before?: string | undefined },
): Promise<{ entries: AccessEntry[]; hasMore: boolean; next: string | null }> {
  const request = await loadVisibleRequest(db, actor, requestNumber);
  assertMayViewAccessLog(actor, request);
  const rows = await repo.listRequestAccess(
    db,
    { requestNumber: request.request_number, submittedAt: request.submitted_at },
    { pageOffset: page.pageOffset, before: page.before ? parseAccessCursor(page.before) : undefined },
  );
  const last = rows.length > ACCESS_PAGE_SIZE ? rows[ACCESS_PAGE_SIZE - 1] : undefined;
  return {
    next: last ? `${last.exact_at}_${last.id}` : null,
    entries: rows.slice(0, ACCESS_PAGE_SIZE).map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      who: r.user_name ?? r.user_id ?? r.api_client ?? recipientReader(r.recipient_sent_to),
      userId: r.user_id,
      apiClient: r.api_client,
      what: r.what,
      via: r.via,
      fileName: r.file_key ? (r.file_name ?? r.file_key) : null,
      address: r.address,
    })),
    hasMore: rows.length > ACCESS_PAGE_SIZE,
  };
}

/**
 * The accounting of disclosures of the request's applicant, as a PDF: what left Dossier about them
 * on any request of theirs within the scopes where the actor reads reports (403/404 as the page).
 */
export async function getApplicantDisclosuresPdf(
  db: DbOrTrx,
  actor: Actor,
  requestNumber: string,
): Promise<{ fileName: string; pdf: Uint8Array }> {
  const request = await loadVisibleRequest(db, actor, requestNumber);
  assertMayViewAccessLog(actor, request);
  const rows = await repo.listDisclosures(
    db,
    request.request_number,
    scopesWithPermission(actor, 'reports:view'),
  );
  const dateOfBirth = request.applicant.dateOfBirth ?? null;
  const pdf = await renderDisclosuresPdf({
    applicant: { name: request.applicant_name, dateOfBirth },
    rows,
    now: new Date(),
  });
  return { fileName: `disclosures-${request.request_number}.pdf`, pdf };
}
