import {
  type AttachmentClassification,
  type InboxMessageItem,
  type InboxMessageView,
  type InboxSearchAnswer,
  type InboxSuggestion,
  isValidRequestNumber,
  isWithinScope,
  REQUEST_NUMBER_PATTERN,
  REQUEST_TAGS,
  searchSummary,
  validateTags,
} from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { DbOrTrx } from '../../db/database.js';
import type { AppDeps } from '../../http/deps.js';
import { conflict, fieldsInvalid, forbidden, notFound } from '../../http/errors.js';
import { namesIn, referencesIn, requestNumbersIn } from '../../mail/incoming/matcher.js';
import { completeTask } from '../assignment/index.js';
import { type Actor, hasPermission, scopesWithPermission } from '../auth/index.js';
import { addInvoice, addResult } from '../requestPage/index.js';
import { canHandleRequest, findRequest, touchRequest, visibleRequests } from '../requests/index.js';
import { localDateTime, toRequestTaskItem } from '../tasks/index.js';
import { linkMessageToRequest, pushToViewers, refreshMessageScope, senderLabel } from './linking.js';
import * as repo from './repository.js';

// The inbox: search, one message's page, canLink, and the actions link and unlink. A
// message belongs to the scope of the requests it is linked to, else to the inbox's (the root): staff
// with the inbox permission see and link the messages at or under their scopes only, so one
// organisation never reads another's replies. What a message may be linked to is limited to the
// requests the actor may handle.

export function requireInbox(actor: Actor): void {
  if (!hasPermission(actor, 'inbox')) throw forbidden('You may not work the inbox.');
}

/** May the actor work a message of this scope? */
export function mayWorkMessage(actor: Actor, scope: string): boolean {
  return scopesWithPermission(actor, 'inbox').some((s) => isWithinScope(scope, s));
}

async function loadMessage(db: DbOrTrx, actor: Actor, id: string, options: { forUpdate?: boolean } = {}) {
  requireInbox(actor);
  const row = await repo.findInboxMessage(db, id, options);
  // Another organisation's message is answered as unknown: its existence is not told.
  if (!row || !mayWorkMessage(actor, row.scope)) throw notFound('No such message.');
  return row;
}

function toItem(
  row: repo.InboxMessageRow | Awaited<ReturnType<typeof repo.searchMessages>>['rows'][number],
  links: repo.LinkRow[] | string[],
): InboxMessageItem {
  const from = row.from_address ?? {};
  const stored = row.attachments ?? [];
  const linkRows = links.filter((l): l is repo.LinkRow => typeof l !== 'string');
  const item: InboxMessageItem = {
    messageId: row.id,
    from,
    receivedAt: new Date(row.received_at).toISOString(),
    requestNumbers:
      linkRows.length > 0
        ? linkRows.filter((l) => !l.unlinked_at).map((l) => l.request_number)
        : (links as string[]),
    requestLinks: linkRows.map((l) => ({
      requestNumber: l.request_number,
      linkedAt: l.linked_at.toISOString(),
      linkedByDisplayName: l.linked_by_name,
      ...(l.unlinked_at
        ? { unlinkedAt: l.unlinked_at.toISOString(), unlinkedByDisplayName: l.unlinked_by_name }
        : {}),
    })),
    attachments: stored.map((a) => ({
      ...(a.blocked ? {} : { key: a.key }),
      name: a.name,
      contentType: a.contentType,
      size: a.size,
      ...(a.blocked ? { blocked: true, blockedReason: a.blockedReason } : {}),
    })),
    subject: row.subject,
    bodyPlainText: row.body_text,
  };
  if (row.flag_reason) item.flagReason = row.flag_reason;
  return item;
}

export interface InboxSearchInput {
  sender?: string | undefined;
  content?: string | undefined;
  receivedAtFrom?: string | undefined;
  receivedAtTo?: string | undefined;
}

/**
 * The received dates as instants: days are the organisation's (Australia/Sydney, as due dates and
 * the dashboard count them), from the start of the "from" day to the end of the "to" day (a "to"
 * date includes that whole day).
 */
export function receivedWindow(terms: Pick<InboxSearchInput, 'receivedAtFrom' | 'receivedAtTo'>): {
  receivedAtFrom?: Date | undefined;
  receivedAtTo?: Date | undefined;
} {
  const dayAfter = (date: string) => {
    const d = new Date(`${date}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 1);
    return d.toISOString().slice(0, 10);
  };
  return {
    receivedAtFrom: terms.receivedAtFrom ? localDateTime(terms.receivedAtFrom, '00:00') : undefined,
    receivedAtTo: terms.receivedAtTo ? localDateTime(dayAfter(terms.receivedAtTo), '00:00') : undefined,
  };
}

export async function searchInbox(
  db: DbOrTrx,
  actor: Actor,
  terms: InboxSearchInput,
  paging: { pageOffset: number; pageSize: number },
): Promise<InboxSearchAnswer> {
  requireInbox(actor);
  const { rows, total } = await repo.searchMessages(db, {
    scopes: scopesWithPermission(actor, 'inbox'),
    sender: terms.sender?.trim() || undefined,
    content: terms.content?.trim() || undefined,
    ...receivedWindow(terms),
    offset: paging.pageOffset,
    size: paging.pageSize,
  });
  const hits = rows.map((row) => {
    const item = toItem(row, row.linked_numbers ?? []);
    // The list shows the beginning of the text only.
    item.bodyPlainText = item.bodyPlainText.slice(0, 300);
    return { id: row.id, item };
  });
  const answer = { hits, total, paging: { offset: paging.pageOffset, size: paging.pageSize } };
  return { ...answer, summary: searchSummary(answer) };
}

async function suggestionsFor(
  db: DbOrTrx,
  actor: Actor,
  row: repo.InboxMessageRow,
): Promise<InboxSuggestion[]> {
  const numbers = requestNumbersIn(row.subject, row.body_text).valid;
  const references = referencesIn(row.subject, row.body_text).filter(
    (r) => !numbers.includes(r.toUpperCase()),
  );
  const from = row.from_address;
  const names = [...namesIn(row.subject, row.body_text), ...(from.displayName ? [from.displayName] : [])];
  const email = row.from_email || null;
  const found = await repo.findSuggestedRequests(db, visibleRequests(actor, 'request:handle'), {
    numbers,
    references,
    email,
    names,
  });
  const lowerNames = names.map((n) => n.toLowerCase());
  return found.map((r) => {
    const reasons: string[] = [];
    if (numbers.includes(r.request_number)) reasons.push('requestNumber');
    if (lowerNames.includes(r.applicant_name.toLowerCase())) reasons.push('applicantName');
    if (reasons.length === 0) reasons.push(references.length ? 'reference' : 'email');
    return {
      requestNumber: r.request_number,
      applicantName: r.applicant_name,
      recipientName: r.recipient_name,
      status: r.status,
      reasons,
    };
  });
}

export async function getInboxMessageView(
  db: DbOrTrx,
  actor: Actor,
  id: string,
  action?: string,
): Promise<InboxMessageView> {
  const row = await loadMessage(db, actor, id);
  const [links, taskRows] = await Promise.all([repo.listLinks(db, id), repo.listTasksOfMessage(db, id)]);
  const item = toItem(row, links);
  const now = new Date();
  const live = links.filter((l) => !l.unlinked_at);
  const view: InboxMessageView = {
    $type: 'inboxMessage',
    title: row.subject || 'Inbox Message',
    message: {
      ...item,
      to: row.to_addresses ?? [],
      ...(row.body_html ? { bodyHtml: row.body_html } : {}),
      ...(row.message_id ? { headerMessageId: row.message_id } : {}),
    },
    summary: {
      receivedAt: item.receivedAt,
      from: senderLabel(row),
      rawFileKey: row.raw_file_key,
      rawSize: Number(row.raw_size),
      ...(row.flag_reason ? { flagReason: row.flag_reason } : {}),
    },
    tasks: taskRows.map((t) => toRequestTaskItem(t, actor, true, now)),
    actions: live.length > 0 ? ['link', 'unlink'] : ['link'],
    suggestions: live.length > 0 ? [] : await suggestionsFor(db, actor, row),
    lookups: { tags: { result: REQUEST_TAGS.result, invoice: REQUEST_TAGS.invoice } },
  };
  if (action === 'link' || action === 'unlink') view.action = action;
  return view;
}

type LinkCheck = { canLink: true } | { canLink: false; status: number; reason: string; field?: boolean };

/** Whether the message may be linked to this request now, and if not, why (with the HTTP status). */
async function checkLink(
  db: DbOrTrx,
  actor: Actor,
  messageId: string,
  requestNumber: string,
  options: { forUpdate?: boolean } = {},
): Promise<LinkCheck & { request?: Awaited<ReturnType<typeof findRequest>> }> {
  if (!REQUEST_NUMBER_PATTERN.test(requestNumber))
    return {
      canLink: false,
      status: 400,
      field: true,
      reason: 'Enter a request number such as ACM251122QXT42.',
    };
  if (!isValidRequestNumber(requestNumber))
    return {
      canLink: false,
      status: 400,
      field: true,
      reason: 'The check digits of this request number are wrong.',
    };
  const request = await findRequest(db, requestNumber, options);
  if (!request) return { canLink: false, status: 404, reason: 'No such request.' };
  if (!canHandleRequest(actor, request))
    return { canLink: false, status: 403, reason: 'You may not link messages to this request.' };
  // A closed request takes mail too (issue 22): the reply is its correspondence, and the request
  // stays closed until someone re-opens it. Only results and invoices wait for that (linkMessage).
  if (await repo.findLiveLink(db, messageId, requestNumber))
    return { canLink: false, status: 409, reason: 'The message is already linked to this request.' };
  return { canLink: true, request };
}

export async function canLinkMessage(db: DbOrTrx, actor: Actor, messageId: string, requestNumber: string) {
  await loadMessage(db, actor, messageId);
  const check = await checkLink(db, actor, messageId, requestNumber);
  return check.canLink ? { canLink: true } : { canLink: false, reason: check.reason };
}

export interface LinkInput {
  requestNumber: string;
  attachments: {
    classification: AttachmentClassification;
    resultTags?: Record<string, string> | undefined;
    invoiceTags?: Record<string, string> | undefined;
  }[];
}

const needsResult = (c: AttachmentClassification) => c === 'result' || c === 'invoiceAndResult';
const needsInvoice = (c: AttachmentClassification) => c === 'invoice' || c === 'invoiceAndResult';

export async function linkMessage(deps: AppDeps, actor: Actor, messageId: string, input: LinkInput) {
  return deps.db.transaction().execute(async (trx) => {
    const message = await loadMessage(trx, actor, messageId, { forUpdate: true });
    const stored = message.attachments ?? [];
    const errors: Record<string, string> = {};
    if (input.attachments.length !== stored.length)
      errors.attachments = `Classify each of the ${stored.length} attachments.`;
    for (const [i, a] of input.attachments.entries()) {
      if (stored[i]?.blocked && a.classification !== 'notIncluded' && a.classification !== 'attachment')
        errors[`attachments.${i}.classification`] = 'A blocked attachment cannot be used.';
      if (needsResult(a.classification))
        for (const [k, v] of Object.entries(validateTags(REQUEST_TAGS.result, a.resultTags ?? {})))
          errors[`attachments.${i}.result${k.replace(/^tags/, 'Tags')}`] = v;
      if (needsInvoice(a.classification))
        for (const [k, v] of Object.entries(validateTags(REQUEST_TAGS.invoice, a.invoiceTags ?? {})))
          errors[`attachments.${i}.invoice${k.replace(/^tags/, 'Tags')}`] = v;
    }
    const check = await checkLink(trx, actor, messageId, input.requestNumber, { forUpdate: true });
    if (!check.canLink) {
      if (check.field || Object.keys(errors).length > 0)
        throw fieldsInvalid({
          ...errors,
          ...(check.field ? { requestNumber: check.reason } : {}),
        });
      if (check.status === 404) throw notFound(check.reason);
      if (check.status === 403) throw forbidden(check.reason);
      throw conflict(check.reason);
    }
    const request = check.request as NonNullable<typeof check.request>;
    // Results and invoices start work (quality assurance, payment) a closed request has none for.
    if (request.status === 'closed')
      for (const [i, a] of input.attachments.entries())
        if (needsResult(a.classification) || needsInvoice(a.classification))
          errors[`attachments.${i}.classification`] =
            'The request is closed: re-open it to add results or invoices.';
    if (Object.keys(errors).length > 0) throw fieldsInvalid(errors);

    const { correspondenceId, linked } = await linkMessageToRequest(trx, {
      message,
      request,
      classifications: input.attachments.map((a) => a.classification),
      actorId: actor.id,
      storage: deps.files.storage,
      live: deps.live,
    });
    // Results and invoices are made by the request page's own actions, so they get the same
    // events, workflow tasks and webhooks as ones added by hand.
    const ctx = { deps, actor, request };
    const resultIds: string[] = [];
    const invoiceIds: string[] = [];
    for (const file of linked) {
      const chosen = input.attachments[file.index];
      if (!chosen) throw new Error(`Linked file ${file.index} has no attachment in the input.`);
      if (needsResult(file.classification)) {
        const out = await addResult.run(trx, ctx, { file: { key: file.key }, tags: chosen.resultTags ?? {} });
        resultIds.push(out.resultId);
      }
      if (needsInvoice(file.classification)) {
        const out = await addInvoice.run(trx, ctx, {
          file: { key: file.key },
          tags: chosen.invoiceTags ?? {},
        });
        invoiceIds.push(out.invoiceId);
      }
    }
    for (const taskId of await repo.openClassifyTaskIds(trx, messageId))
      await completeTask(trx, { live: deps.live }, taskId, actor.id);
    return { requestNumber: request.request_number, correspondenceId, resultIds, invoiceIds };
  });
}

export async function unlinkMessage(deps: AppDeps, actor: Actor, messageId: string, requestNumber: string) {
  return deps.db.transaction().execute(async (trx) => {
    const message = await loadMessage(trx, actor, messageId, { forUpdate: true });
    const link = REQUEST_NUMBER_PATTERN.test(requestNumber)
      ? await repo.findLiveLink(trx, messageId, requestNumber)
      : undefined;
    if (!link)
      throw fieldsInvalid({
        requestNumber: 'Choose a request this message is linked to.',
      });
    const request = await findRequest(trx, requestNumber, { forUpdate: true });
    if (!request || !canHandleRequest(actor, request))
      throw forbidden('You may not unlink messages from this request.');
    // A message may be unlinked from a closed request too (the specification allows it): the request
    // stays closed, and its history records the unlink.
    const at = new Date();
    if (link.correspondence_id) await repo.deleteCorrespondence(trx, requestNumber, link.correspondence_id);
    await repo.markUnlinked(trx, link.id, actor.id, at);
    await refreshMessageScope(trx, messageId);
    await recordEvent(trx, {
      type: 'request.messageUnlinked',
      aggregateType: 'request',
      aggregateId: requestNumber,
      actor: actor.id,
      payload: {
        summary: `Unlinked the message from ${senderLabel(message)}; its results and invoices stay on the request.`,
        inboxMessageId: messageId,
      },
    });
    await touchRequest(trx, requestNumber, actor.id, at);
    await pushToViewers(trx, deps.live, requestNumber, link.correspondence_id ?? messageId);
    return { requestNumber };
  });
}
