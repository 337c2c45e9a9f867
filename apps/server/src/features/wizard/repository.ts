import { permissionsOfRole, ROLES } from '@dossier/core';
import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import { likeContains, likeStartsWith } from '../../db/search.js';

// All SQL of the wizard: drafts, the submitters of an organisation, earlier applicants and the full
// rows of recipients found by the directory's search.

/** A user has at most this many drafts listed; older ones stay until discarded. */
const DRAFT_LIST_LIMIT = 50;

export function listDrafts(db: DbOrTrx, userId: string) {
  return db
    .selectFrom('request_drafts')
    .select(['id', 'completed_step', 'data', 'created_at', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .limit(DRAFT_LIST_LIMIT)
    .execute();
}

export function findDraft(db: DbOrTrx, draftId: string) {
  return db.selectFrom('request_drafts').selectAll().where('id', '=', draftId).executeTakeFirst();
}

/**
 * Creates the draft, or replaces it when it is the user's own. Answers false when the id belongs to
 * another user's draft (nothing is written then).
 */
export async function upsertDraft(
  db: DbOrTrx,
  draft: { id: string; userId: string; completedStep: number; data: unknown },
): Promise<boolean> {
  const row = await db
    .insertInto('request_drafts')
    .values({
      id: draft.id,
      user_id: draft.userId,
      completed_step: draft.completedStep,
      data: JSON.stringify(draft.data),
    })
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({
          completed_step: draft.completedStep,
          data: JSON.stringify(draft.data),
          updated_at: new Date(),
        })
        .where('request_drafts.user_id', '=', draft.userId),
    )
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteDraft(db: DbOrTrx, draftId: string, userId: string): Promise<void> {
  await db.deleteFrom('request_drafts').where('id', '=', draftId).where('user_id', '=', userId).execute();
}

const SUBMIT_ROLES = ROLES.filter((role) => permissionsOfRole(role).includes('request:submit'));

/** Enabled users holding a submitting role at the organisation or below it. */
export function listSubmitters(db: DbOrTrx, organization: string) {
  return db
    .selectFrom('users')
    .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
    .select(['users.id', 'users.name'])
    .distinct()
    .where('users.disabled', '=', false)
    .where('user_roles.role', 'in', SUBMIT_ROLES)
    .where('user_roles.scope', 'like', likeStartsWith(organization))
    .orderBy('users.name')
    .orderBy('users.id')
    .limit(500)
    .execute();
}

export interface ApplicantTerms {
  name?: string | undefined;
  dateOfBirth?: string | undefined;
  reference?: string | undefined;
}

/** Only this many of the newest matching requests are looked at, so a broad term stays cheap. */
const APPLICANT_SCAN_LIMIT = 500;

/**
 * The applicants of an organisation's earlier requests, newest request first, one per name and
 * date of birth. At least one term must be given (the service ensures it), so each search runs on
 * an index: the name trigram index, the date of birth index or the reference index; and only the
 * newest matching requests are grouped.
 */
export async function searchApplicants(
  db: DbOrTrx,
  organization: string,
  terms: ApplicantTerms,
  limit: number,
) {
  let matching = db
    .selectFrom('requests')
    .where('scope', '=', organization)
    .select(['request_number', 'applicant', 'applicant_name', 'applicant_date_of_birth', 'submitted_at']);
  if (terms.name) matching = matching.where(sql`lower(applicant_name)`, 'like', likeContains(terms.name));
  if (terms.dateOfBirth)
    matching = matching.where('applicant_date_of_birth', '=', sql<Date>`${terms.dateOfBirth}::date`);
  if (terms.reference) {
    matching = matching.where(
      sql`lower(applicant ->> 'reference1')`,
      'like',
      `${terms.reference
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    );
  }
  const recent = matching.orderBy('submitted_at', 'desc').limit(APPLICANT_SCAN_LIMIT).as('recent');
  const distinct = db
    .selectFrom(recent)
    .selectAll()
    .distinctOn([sql`lower(recent.applicant_name)`, 'recent.applicant_date_of_birth'])
    .orderBy(sql`lower(recent.applicant_name)`)
    .orderBy('recent.applicant_date_of_birth')
    .orderBy('recent.submitted_at', 'desc')
    .as('a');
  return db.selectFrom(distinct).selectAll().orderBy('a.submitted_at', 'desc').limit(limit).execute();
}

export function findRecipientRows(db: DbOrTrx, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('recipients').selectAll().where('id', 'in', ids).execute();
}
