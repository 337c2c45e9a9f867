import {
  type RequestEventName,
  senderMayBeMailedAboutTask,
  type TemplateUsage,
  type WorkflowTaskType,
} from '@dossier/core';
import { type AppAddress, appUrlOf } from '../../config.js';
import type { Trx } from '../../db/database.js';
import { enqueueMail, type MailAttachment } from '../../mail/outbox.js';
import { getRequestSettings, getTaskTypeSettings } from '../configuration/index.js';
import { findRequest, type RequestRow } from '../requests/index.js';
import { type RenderedMail, renderMail, requestMailData, type Wording } from './render.js';
import * as repo from './repository.js';

// Emails of the workflow (issue 6, item 5) to the request sender, external users and other
// addresses, as the notify flags of the task type settings and request settings say. Each is
// rendered from the template of its usage and queued in the outbox in the caller's transaction.
//
// Events handled (run by the workflow engine through rule.ts, after the event's commit):
//   request.closed / request.reOpened                 requestClosed / requestReOpened
//   request.resultQualityAssured (payload.resultId)   resultQualityAssured (LargeFile over 10 MB)
//   request.resultAdded, its QA skipped               resultQualityAssured, as if QA'd at once
//   request.resultDiscarded (payload.resultId)        resultDiscarded
//   request.taskAdded (payload.taskId)                workflowTaskTriggered (+ senderActionRequired)
//   request.taskCompleted (payload.taskId)            workflowTaskCompleted
// Every message names its request in the outbox, so a failure raises an exception task on it and a
// reply threads back to it.

/**
 * A result file above this size is delivered as a link (template resultQualityAssuredLargeFile)
 * instead of an attachment: 10 MB, the attachment limit of common mail services less the ~37%
 * that base64 encoding adds stays under their 25 MB message cap with room to spare.
 */
export const LARGE_RESULT_BYTES = 10 * 1024 * 1024;

export interface WorkflowMailEvent {
  type: RequestEventName;
  /** The request number (events.aggregate_id). */
  aggregate_id: string;
  payload: unknown;
}

export interface WorkflowMailDeps {
  /** The address of the app (appUrlOf): every link in a mail is absolute. */
  config?: AppAddress | undefined;
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** The addresses of a setting: one or several, separated by commas, semicolons or spaces. */
function addressesOf(value: string | string[] | undefined): string[] {
  const list = Array.isArray(value) ? value : (value ?? '').split(/[\s,;]+/);
  return list.map((a) => a.trim()).filter((a) => EMAIL.test(a));
}

/** Queues one message per address (each person gets one, however many rules name it). */
async function send(
  trx: Trx,
  request: RequestRow,
  to: Iterable<string>,
  mail: RenderedMail,
  attachments?: MailAttachment[],
): Promise<number> {
  const seen = new Set<string>();
  for (const address of to) {
    const key = address.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    await enqueueMail(trx, { to: address, ...mail, attachments, requestNumber: request.request_number });
  }
  return seen.size;
}

const payloadField = (payload: unknown, field: string): string | undefined => {
  const value =
    payload && typeof payload === 'object' ? (payload as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
};

/** Handles one event; answers how many messages were queued (0 for events it does not handle). */
export async function sendWorkflowMail(
  trx: Trx,
  deps: WorkflowMailDeps,
  event: WorkflowMailEvent,
): Promise<number> {
  const request = await findRequest(trx, event.aggregate_id);
  if (!request) return 0;
  switch (event.type) {
    case 'request.closed':
      return sendRequestStateMail(trx, deps, request, 'closed');
    case 'request.reOpened':
      return sendRequestStateMail(trx, deps, request, 'reOpened');
    case 'request.resultAdded':
    case 'request.resultQualityAssured':
    case 'request.resultDiscarded': {
      const resultId = payloadField(event.payload, 'resultId');
      if (!resultId) return 0;
      const kind = event.type === 'request.resultDiscarded' ? 'discarded' : 'qualityAssured';
      return sendResultMail(trx, deps, request, resultId, kind, {
        onlyIfQaSkipped: event.type === 'request.resultAdded',
      });
    }
    case 'request.taskAdded':
    case 'request.taskCompleted': {
      const taskId = payloadField(event.payload, 'taskId');
      if (!taskId) return 0;
      return sendTaskMail(
        trx,
        deps,
        request,
        taskId,
        event.type === 'request.taskCompleted' ? 'completed' : 'triggered',
      );
    }
    default:
      return 0;
  }
}

const STATE_WORDING: Record<'closed' | 'reOpened', Wording> = {
  closed: {
    subject: 'Request ${request.requestNumber} closed',
    body: ['Request ${request.requestNumber} was closed on ${request.closedAt date}.'],
  },
  reOpened: {
    subject: 'Request ${request.requestNumber} re-opened',
    body: ['Request ${request.requestNumber} was re-opened.'],
  },
};

/** requestClosed / requestReOpened per notify{RequestSender,ExternalUsers,Other}When{Closed,ReOpened}. */
export async function sendRequestStateMail(
  trx: Trx,
  deps: WorkflowMailDeps,
  request: RequestRow,
  state: 'closed' | 'reOpened',
): Promise<number> {
  const settings = await getRequestSettings(trx, request.scope);
  if (!settings) return 0;
  const when = state === 'closed' ? 'Closed' : 'ReOpened';
  const to: string[] = [];
  if (settings[`notifyRequestSenderWhen${when}`]) {
    const sender = await repo.senderEmail(trx, request);
    if (sender) to.push(sender);
  }
  if (settings[`notifyExternalUsersWhen${when}`]) to.push(...(await repo.externalUserEmails(trx, request)));
  to.push(...addressesOf(settings[`notifyOtherWhen${when}`]));
  if (to.length === 0) return 0;
  const usage: TemplateUsage = state === 'closed' ? 'requestClosed' : 'requestReOpened';
  const data = await requestMailData(trx, deps.config ?? { publicUrl: undefined }, request);
  return send(
    trx,
    request,
    to,
    await renderMail(trx, request.scope, usage, data, STATE_WORDING[state], appUrlOf(deps.config)),
  );
}

const RESULT_WORDING: Record<
  'resultQualityAssured' | 'resultQualityAssuredLargeFile' | 'resultDiscarded',
  Wording
> = {
  resultQualityAssured: {
    subject: 'A result of request ${request.requestNumber} is ready',
    body: ['A result of request ${request.requestNumber} is ready: ${result.url link "open the result"}.'],
  },
  resultQualityAssuredLargeFile: {
    subject: 'A result of request ${request.requestNumber} is ready',
    body: ['A large result of request ${request.requestNumber} is ready to download: ${result.url link}.'],
  },
  resultDiscarded: {
    subject: 'A result of request ${request.requestNumber} was discarded',
    body: ['A result received for request ${request.requestNumber} was discarded.'],
  },
};

/**
 * A quality-assured result goes to the sender (delivery of the result): to
 * resultQualityAssuredRecipient when set, else the request sender; attached, or as a link with the
 * LargeFile template and recipient when over LARGE_RESULT_BYTES. A result whose QA is skipped
 * (disableResultQualityAssurance) is delivered the same way when it is added. A discarded result is
 * told to resultDiscardedRecipient, else the sender. resultNotificationsBccRecipient gets a blind
 * copy of either (a message of its own, so no other recipient sees its address).
 */
export async function sendResultMail(
  trx: Trx,
  deps: WorkflowMailDeps,
  request: RequestRow,
  resultId: string,
  kind: 'qualityAssured' | 'discarded',
  options: { onlyIfQaSkipped?: boolean } = {},
): Promise<number> {
  const result = await repo.findResultFile(trx, resultId);
  if (!result || result.request_number !== request.request_number) return 0;
  if (options.onlyIfQaSkipped && !result.quality_assurance_skipped) return 0;
  // A result discarded before its delivery went out is not delivered any more.
  if (kind === 'qualityAssured' && result.discarded_at) return 0;
  const settings = await getRequestSettings(trx, request.scope);
  const size = Number(result.size ?? result.declared_size ?? 0);
  const large = kind === 'qualityAssured' && size > LARGE_RESULT_BYTES;
  const usage =
    kind === 'discarded'
      ? 'resultDiscarded'
      : large
        ? 'resultQualityAssuredLargeFile'
        : 'resultQualityAssured';
  const configured = addressesOf(settings?.[`${usage}Recipient`]);
  // The sender is told of a discarded result only if it had been delivered to it (QA done or
  // skipped): of one it never saw, the mail would only puzzle it.
  const senderSawIt =
    kind === 'qualityAssured' || !!result.quality_assured_at || result.quality_assurance_skipped;
  const to =
    configured.length > 0
      ? configured
      : senderSawIt
        ? [await repo.senderEmail(trx, request)].filter((a) => a !== undefined)
        : [];
  const bcc = addressesOf(settings?.resultNotificationsBccRecipient);
  if (to.length === 0 && bcc.length === 0) return 0;
  const base = appUrlOf(deps.config);
  const data = await requestMailData(trx, deps.config ?? { publicUrl: undefined }, request, {
    result: {
      fileName: result.name,
      classification: result.classification ?? 'result',
      url: `${base}/requests/${request.request_number}/results/${result.id}`,
      addedAt: result.created_at.toISOString(),
      size,
    },
  });
  const mail = await renderMail(trx, request.scope, usage, data, RESULT_WORDING[usage], base);
  const attachments =
    kind === 'qualityAssured' && !large
      ? [{ fileKey: result.key, name: result.name, contentType: result.content_type }]
      : undefined;
  const sent = await send(trx, request, to, mail, attachments);
  const told = new Set(to.map((a) => a.toLowerCase()));
  return (
    sent +
    (await send(
      trx,
      request,
      bcc.filter((a) => !told.has(a.toLowerCase())),
      mail,
      attachments,
    ))
  );
}

const TASK_WORDING: Record<
  'workflowTaskTriggered' | 'workflowTaskCompleted' | 'senderActionRequired',
  Wording
> = {
  workflowTaskTriggered: {
    subject: '${task.type enum workflowTaskType} for ${request.requestNumber}',
    body: [
      'A task was created for request ${request.requestNumber}: ${task.subject}. Due ${task.dueAt date}.',
    ],
  },
  workflowTaskCompleted: {
    subject: '${task.type enum workflowTaskType} completed for ${request.requestNumber}',
    body: ['The task ${task.subject} of request ${request.requestNumber} is complete.'],
  },
  senderActionRequired: {
    subject: 'Request ${request.requestNumber} needs your action',
    body: ['Request ${request.requestNumber} needs your action: ${task.notice}'],
  },
};

/**
 * workflowTaskTriggered / workflowTaskCompleted per the task type's notify flags. A triggered
 * senderActionRequired task is the sender's to do: the sender always gets the senderActionRequired
 * mail for it, whatever the flag (the flag still decides for external users and other addresses).
 */
export async function sendTaskMail(
  trx: Trx,
  deps: WorkflowMailDeps,
  request: RequestRow,
  taskId: string,
  moment: 'triggered' | 'completed',
): Promise<number> {
  const task = await repo.findTask(trx, taskId);
  if (!task || task.request_number !== request.request_number) return 0;
  const type = task.type as WorkflowTaskType;
  const settings = await getTaskTypeSettings(trx, request.scope, type);
  const when = moment === 'triggered' ? 'Triggered' : 'Completed';
  const senderAction = moment === 'triggered' && type === 'senderActionRequired';
  // A task about work the sender side never sees (a result awaiting QA, an invoice) is not told to
  // it, whatever the flags say (senderVisibility.ts in @dossier/core).
  const toSenderSide = senderMayBeMailedAboutTask(type);
  const sender =
    senderAction || (toSenderSide && settings?.[`notifyRequestSenderWhen${when}`])
      ? await repo.senderEmail(trx, request)
      : undefined;
  const others = [
    ...(toSenderSide && settings?.[`notifyExternalUsersWhen${when}`]
      ? await repo.externalUserEmails(trx, request)
      : []),
    ...addressesOf(settings?.[`notifyOtherWhen${when}`]),
  ];
  if (!sender && others.length === 0) return 0;
  const base = appUrlOf(deps.config);
  const data = await requestMailData(trx, deps.config ?? { publicUrl: undefined }, request, {
    task: {
      taskId: task.id,
      type,
      subject: task.subject,
      notice: task.notice ?? '',
      dueAt: task.due_at?.toISOString(),
      completedAt: task.completed_at?.toISOString(),
      assignedTo: task.assigned_to_name ?? undefined,
      url: `${base}/requests/${request.request_number}`,
    },
  });
  const usage = moment === 'triggered' ? 'workflowTaskTriggered' : 'workflowTaskCompleted';
  const mail = await renderMail(trx, request.scope, usage, data, TASK_WORDING[usage], base);
  let sent = 0;
  if (sender && senderAction) {
    const action = await renderMail(
      trx,
      request.scope,
      'senderActionRequired',
      data,
      TASK_WORDING.senderActionRequired,
      base,
    );
    sent += await send(trx, request, [sender], action);
  }
  const rest = senderAction || !sender ? others : [sender, ...others];
  const told = senderAction && sender ? new Set([sender.toLowerCase()]) : new Set<string>();
  return (
    sent +
    (await send(
      trx,
      request,
      rest.filter((a) => !told.has(a.toLowerCase())),
      mail,
    ))
  );
}
