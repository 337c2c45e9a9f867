import {
  ADDABLE_TASK_TYPES,
  computeRequestKpi,
  type IssueRequestMethod,
  type PendingTask,
  REQUEST_TAGS,
  type RequestSummary,
  type RequestView,
  SENDER_TASK_TYPES,
  type TagDefinition,
} from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { offeredActionNames } from '../../http/actions.js';
import type { AppDeps } from '../../http/deps.js';
import { mayViewAccessLog } from '../accessLog/index.js';
import type { Actor } from '../auth/index.js';
import { getPublicHolidays, getRequestSettings, getScopeEntry } from '../configuration/index.js';
import { listRequestCorrespondence } from '../correspondence/index.js';
import { listRequestInvoices } from '../invoices/index.js';
import { listAccessItems } from '../recipientAccess/index.js';
import type { RequestRow } from '../requests/index.js';
import {
  canAddUrgentNote,
  canHandleRequest,
  editablePartsOf,
  isRequestSender,
  isRequestStaff,
  listRequestHistory,
  listSubmitterChoices,
  loadContentItemTypes,
  loadVisibleRequest,
} from '../requests/index.js';
import { listRequestResults } from '../results/index.js';
import {
  listPendingTasks,
  listTasksOfRequest,
  RECIPIENT_TASK_TYPES,
  REQUEST_TASKS_LIMIT,
  toRequestTaskItem,
} from '../tasks/index.js';
import { requestActions } from './actions/index.js';
import { userNames } from './repository.js';

// The request page (GET /requests/{n}): the request with its KPI figures, what the actor may edit
// and do, and every linked list. The caller has loaded the row through loadVisibleRequest.

const iso = (d: Date | null) => d?.toISOString();

/** `pending`: the KPI's pending tasks when the caller has them; else they are read. */
export async function buildRequestSummary(
  db: DbOrTrx,
  row: RequestRow,
  now = new Date(),
  pending: Promise<PendingTask[]> = listPendingTasks(db, row.request_number),
): Promise<RequestSummary> {
  const [names, scopeEntry, holidays, pendingTasks] = await Promise.all([
    userNames(db, [row.submitted_by, row.submitted_on_behalf_of]),
    getScopeEntry(db, row.scope),
    getPublicHolidays(db, row.scope),
    pending,
  ]);
  return {
    requestNumber: row.request_number,
    status: row.status,
    scope: row.scope,
    sender: {
      organization: row.scope,
      organizationName: scopeEntry?.name ?? row.scope,
      submittedOnBehalfOf: row.submitted_on_behalf_of,
      submittedOnBehalfOfDisplayName: row.submitted_on_behalf_of
        ? (names.get(row.submitted_on_behalf_of) ?? null)
        : null,
      referenceNumber: row.reference_number,
      externalUserReferences: row.external_user_references,
    },
    applicant: row.applicant,
    recipient: row.recipient,
    content: row.content,
    tags: row.tags ?? {},
    submittedAt: row.submitted_at.toISOString(),
    submittedBy: row.submitted_by,
    submittedByDisplayName: row.submitted_by ? (names.get(row.submitted_by) ?? null) : null,
    issuedAt: iso(row.issued_at),
    issueMethod: (row.issue_method as IssueRequestMethod | null) ?? undefined,
    closedAt: iso(row.closed_at),
    closedBy: row.closed_by ?? undefined,
    lastUpdatedAt: row.last_updated_at.toISOString(),
    lastUpdatedBy: row.last_updated_by,
    lastActivityAt: row.last_activity_at.toISOString(),
    version: row.version,
    kpi: computeRequestKpi({
      submittedAt: row.submitted_at,
      closedAt: row.closed_at,
      now,
      tasks: pendingTasks,
      holidays,
    }),
  };
}

// The tags as plain (mutable) definitions, for the page's lookups.
const lookupTags: Record<string, TagDefinition[]> = Object.fromEntries(
  Object.entries(REQUEST_TAGS).map(([kind, defs]) => [
    kind,
    defs.map((d) => ({ ...d, values: [...d.values] })),
  ]),
);

const PENDING_TYPES: readonly string[] = [
  'senderActionRequired',
  'actionDeferred',
] satisfies PendingTask['type'][];

/**
 * The KPI's pending tasks taken from the page's task list, one query less per page, when that list
 * holds every one of them: not cut by its limit, and not filtered to types that leave some out.
 */
function pendingFromTaskList(
  rows: { type: string; triggered_at: Date; completed_at: Date | null }[],
  types: readonly string[] | undefined,
): PendingTask[] | undefined {
  if (rows.length >= REQUEST_TASKS_LIMIT) return undefined;
  if (types && !PENDING_TYPES.every((t) => types.includes(t))) return undefined;
  return rows
    .filter((r) => PENDING_TYPES.includes(r.type))
    .map((r) => ({
      type: r.type as PendingTask['type'],
      triggeredAt: r.triggered_at,
      completedAt: r.completed_at,
    }));
}

export async function buildRequestView(deps: AppDeps, actor: Actor, row: RequestRow): Promise<RequestView> {
  const { db } = deps;
  const now = new Date();
  const canHandle = canHandleRequest(actor, row);
  const staff = isRequestStaff(actor, row);
  // The sender side sees its own tasks only (senderVisibility.ts in @dossier/core).
  const taskTypes = staff ? undefined : SENDER_TASK_TYPES;
  const taskList = listTasksOfRequest(db, row.request_number, taskTypes);
  const pending = taskList.then(
    (rows) => pendingFromTaskList(rows, taskTypes) ?? listPendingTasks(db, row.request_number),
  );
  const [request, settings, taskRows, results, invoices, correspondence, history, actions, contentItemTypes] =
    await Promise.all([
      buildRequestSummary(db, row, now, pending),
      getRequestSettings(db, row.scope),
      taskList,
      listRequestResults(db, actor, row),
      listRequestInvoices(db, actor, row),
      listRequestCorrespondence(db, actor, row),
      listRequestHistory(db, row.request_number, { staff }),
      offeredActionNames(requestActions, { deps, actor, request: row }),
      loadContentItemTypes(db, row.scope, row.content),
    ]);
  const recipientAccesses = staff ? await listAccessItems(db, row) : undefined;
  const editableParts = editablePartsOf(actor, row, settings);
  // The sender edit picks the on-behalf-of submitter by name, as the wizard does.
  const submitters = editableParts.includes('sender') ? await listSubmitterChoices(db, row.scope) : undefined;
  const isSender = isRequestSender(actor, row);
  const tasks = taskRows.map((t) => toRequestTaskItem(t, actor, canHandle, now, isSender));
  const live = <T extends { discardedAt?: string | undefined }>(items: T[]) =>
    items.filter((i) => !i.discardedAt);
  const liveResults = live(results);
  const liveInvoices = live(invoices);
  return {
    $type: 'request',
    title: `Request ${row.request_number}`,
    request,
    contentItemTypes,
    editableParts,
    actions,
    canAddUrgentNote: canAddUrgentNote(actor, row),
    tasks,
    recipientTasks: tasks.filter((t) => (RECIPIENT_TASK_TYPES as readonly string[]).includes(t.type)),
    results,
    invoices,
    canViewInvoices: staff,
    canViewAccess: mayViewAccessLog(actor, row),
    correspondence,
    ...(recipientAccesses ? { recipientAccesses } : {}),
    previews: {
      // Completed tasks keep their due date (the Due column shows it): only open ones are due.
      tasksDue: tasks.filter((t) => t.completedAt === undefined).length,
      tasksCompleted: tasks.filter((t) => t.completedAt !== undefined).length,
      resultsAvailable: liveResults.filter((r) => r.qualityAssuredAt || r.qualityAssuranceSkipped).length,
      resultsAwaitingQa: liveResults.filter((r) => !r.qualityAssuredAt && !r.qualityAssuranceSkipped).length,
      invoicesPaid: liveInvoices.filter((i) => i.paidAt).length,
      invoicesWaiting: liveInvoices.filter((i) => !i.paidAt).length,
      lastActivityAt: request.lastActivityAt,
    },
    history,
    retention: {
      filesRemovedAt: iso(row.files_removed_at),
      deIdentifiedAt: iso(row.de_identified_at),
      ...(staff && row.legal_hold_at && row.legal_hold_reason
        ? { legalHold: { at: row.legal_hold_at.toISOString(), reason: row.legal_hold_reason } }
        : {}),
    },
    lookups: {
      tags: lookupTags,
      addableTaskTypes: [...ADDABLE_TASK_TYPES],
      ...(submitters ? { submitters } : {}),
    },
  };
}

/**
 * The request page as it is now, for a write of another feature that the page asks to be answered
 * with (a task's move, a note's edit): the page puts it in place and makes no second call.
 */
export async function loadRequestView(deps: AppDeps, actor: Actor, requestNumber: string) {
  return buildRequestView(deps, actor, await loadVisibleRequest(deps.db, actor, requestNumber));
}
