import {
  type DraftData,
  type DraftSummary,
  draftDataSchema,
  LAST_STEP,
  type NewRequestView,
  type RequestReceiptView,
  reconcileCompletedStep,
  stepIndex,
  WIZARD_STEPS,
  wizardContextOf,
} from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { forbidden } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { getScopeEntry } from '../configuration/index.js';
import { loadVisibleRequest } from '../requests/index.js';
import * as repo from './repository.js';
import { getSenderData, listSenderOrganizations } from './senderData.js';

// The wizard's pages and drafts: the new-request page (drafts listed when none is open), a draft
// opened at a step, saving and discarding drafts, and the receipt after submission.

const TITLE = 'New Request';

function summaryOf(
  row: { id: string; completed_step: number; data: unknown; created_at: Date; updated_at: Date },
  names: Map<string, string>,
): DraftSummary {
  const data = (draftDataSchema.safeParse(row.data).data ?? {}) as DraftData;
  const organization = data.sender?.organization;
  return {
    draftId: row.id,
    completedStep: row.completed_step,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    organizationName: organization ? (names.get(organization) ?? organization) : null,
    applicantName: data.applicant?.name?.trim() || null,
  };
}

/** GET /requests/new: the user's saved drafts and the organisations it may submit for. */
export async function getNewRequestView(db: DbOrTrx, actor: Actor): Promise<NewRequestView> {
  const [organizations, rows] = await Promise.all([
    listSenderOrganizations(db, actor),
    repo.listDrafts(db, actor.id),
  ]);
  const names = new Map(organizations.map((o) => [o.scopePath, o.name]));
  return {
    $type: 'newRequest',
    title: TITLE,
    organizations,
    drafts: rows.map((row) => summaryOf(row, names)),
    draft: null,
    step: 'sender',
    senderData: null,
  };
}

/**
 * GET /requests/new/{draftId}?step=: the draft open at a step. An id not saved yet opens an empty
 * draft (the browser makes the ids); another user's draft is refused. A step beyond the completed
 * one opens the completed step instead.
 */
export async function getDraftView(
  db: DbOrTrx,
  actor: Actor,
  draftId: string,
  step: string | undefined,
): Promise<NewRequestView> {
  const row = await repo.findDraft(db, draftId);
  if (row && row.user_id !== actor.id) throw forbidden('This draft belongs to another user.');
  const organizations = await listSenderOrganizations(db, actor);
  const data = ((row && draftDataSchema.safeParse(row.data).data) ?? {}) as DraftData;
  const organization = data.sender?.organization;
  const allowed = organization && organizations.some((o) => o.scopePath === organization);
  const senderData = allowed ? await getSenderData(db, actor, organization) : null;
  // A step whose required fields are missing (the organisation's rules may have changed since the
  // draft was saved) is where the draft stands now.
  const completedStep = reconcileCompletedStep(
    Math.min(row?.completed_step ?? 0, LAST_STEP),
    data,
    wizardContextOf(senderData),
  );
  return {
    $type: 'newRequest',
    title: TITLE,
    organizations,
    drafts: [],
    draft: {
      draftId,
      completedStep,
      createdAt: row?.created_at.toISOString() ?? null,
      isSaved: row !== undefined,
      data,
    },
    step: WIZARD_STEPS[Math.min(stepIndex(step), completedStep)] ?? 'sender',
    senderData,
  };
}

/** PUT /drafts/{draftId}: creates or replaces the user's draft; another user's draft is refused. */
export async function saveDraft(
  db: DbOrTrx,
  actor: Actor,
  draftId: string,
  input: { completedStep: number; data: DraftData },
): Promise<{ draftId: string; savedAt: string }> {
  const saved = await repo.upsertDraft(db, {
    id: draftId,
    userId: actor.id,
    completedStep: input.completedStep,
    data: input.data,
  });
  if (!saved) throw forbidden('This draft belongs to another user.');
  return { draftId, savedAt: new Date().toISOString() };
}

/** DELETE /drafts/{draftId}: discards the user's draft (gone already is fine). */
export async function discardDraft(db: DbOrTrx, actor: Actor, draftId: string): Promise<{ draftId: string }> {
  const row = await repo.findDraft(db, draftId);
  if (row && row.user_id !== actor.id) throw forbidden('This draft belongs to another user.');
  await repo.deleteDraft(db, draftId, actor.id);
  return { draftId };
}

/** GET /requests/{n}/receipt: what was submitted, for those who may see the request. */
export async function getReceiptView(
  db: DbOrTrx,
  actor: Actor,
  requestNumber: string,
): Promise<RequestReceiptView> {
  const row = await loadVisibleRequest(db, actor, requestNumber);
  const { applicant, recipient, content } = row;
  const scope = await getScopeEntry(db, row.scope);
  return {
    $type: 'requestReceipt',
    title: `Request ${requestNumber} submitted`,
    requestNumber,
    submittedAt: row.submitted_at.toISOString(),
    organizationName: scope?.name ?? row.scope,
    applicant: { name: applicant.name, dateOfBirth: applicant.dateOfBirth ?? null },
    recipient: { name: recipient.name, phone: recipient.phone ?? '' },
    itemTypes: (content.itemTypes ?? []).map((t) => ({ id: t.id, name: t.name ?? t.id })),
    files: content.additionalFiles ?? [],
    requestPath: `/requests/${requestNumber}`,
  };
}
