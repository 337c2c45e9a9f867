import type { ApplicantHit, PagingQuery, RequestRecipient, SearchAnswer } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { toSearchAnswer } from '../../db/search.js';
import type { Actor } from '../auth/index.js';
import { recipientsRepository as recipients } from '../recipients/index.js';
import * as repo from './repository.js';
import { requireSenderOrganization } from './senderData.js';

// The searches of the wizard's Applicant and Recipient steps. Applicants come from the
// organisation's earlier requests (one hit per name and date of birth); recipients from the
// directory, through the recipients feature's own search, answered whole so a pick fills the form.

const APPLICANT_HITS = 20;

/** GET /applicants/{organization}/search: nothing without a term, so every search uses an index. */
export async function searchApplicants(
  db: DbOrTrx,
  actor: Actor,
  organization: string,
  terms: repo.ApplicantTerms,
): Promise<SearchAnswer<ApplicantHit>> {
  await requireSenderOrganization(db, actor, organization);
  const paging = { pageOffset: 0, pageSize: APPLICANT_HITS };
  if (!terms.name?.trim() && !terms.dateOfBirth && !terms.reference?.trim())
    return toSearchAnswer([], 0, paging);
  const rows = await repo.searchApplicants(db, organization, terms, APPLICANT_HITS);
  const hits = rows.map((row) => {
    const { authority: _a, application: _b, tags: _t, ...applicant } = row.applicant;
    return {
      id: row.request_number,
      item: {
        ...applicant,
        lastRequestNumber: row.request_number,
      },
    };
  });
  return toSearchAnswer(hits, hits.length, paging);
}

export type RecipientHit = RequestRecipient & { address: string | null; disabled: boolean };

/** GET /recipients/search for submitters: enabled directory entries, each as a request snapshot. */
export async function searchRecipientSnapshots(
  db: DbOrTrx,
  terms: recipients.RecipientSearch,
  paging: PagingQuery,
): Promise<SearchAnswer<RecipientHit>> {
  const { rows, total } = await recipients.searchRecipients(db, terms, paging.pageOffset, paging.pageSize);
  const full = new Map(
    (
      await repo.findRecipientRows(
        db,
        rows.map((r) => r.id),
      )
    ).map((r) => [r.id, r]),
  );
  const hits: { id: string; item: RecipientHit }[] = [];
  for (const row of rows) {
    const r = full.get(row.id);
    if (!r) continue;
    const storedTags = r.tags ?? {};
    hits.push({
      id: r.id,
      item: {
        recipientId: r.id,
        version: r.version,
        name: r.name,
        phone: r.phone,
        fax: r.fax,
        email: r.email,
        webSiteUrl: r.web_site_url,
        streetAddress: r.street_address,
        postalAddress: r.postal_address,
        country: r.country,
        notes: r.notes,
        attachments: (r.attachments ?? []) as RecipientHit['attachments'],
        tags: Object.fromEntries(
          Object.entries(storedTags).flatMap(([id, t]) =>
            typeof t?.value === 'string' ? [[id, t.value]] : [],
          ),
        ),
        contacts: r.contacts ?? [],
        contact: null,
        disabled: r.disabled,
        address: r.street_address ?? r.postal_address,
      },
    });
  }
  return toSearchAnswer(hits, total, paging);
}
