import type { Trx } from '../../db/database.js';
import type { LiveHub } from '../../live/hub.js';
import { assignTask, assignTaskTo, listAssignableUsers } from '../assignment/index.js';
import { createNotification } from '../notifications/index.js';
import type { RequestRow } from '../requests/index.js';
import { senderLabel } from './linking.js';
import * as repo from './repository.js';

// Mail for a closed request (issue 22). It is linked like any other (it is the request's
// correspondence), but a closed request has no open task and nobody looks at it, so the reply
// would sit there unseen. Its message gets the inbox's classify task instead, given to the
// request's last handler when the assignment rules let them take it (else assigned as usual), and
// that handler is told. The request stays closed: re-opening it is a person's decision.

export const closedRequestNotice = (numbers: string[]) =>
  `Mail arrived for closed request${numbers.length > 1 ? 's' : ''} ${numbers.join(', ')}. ` +
  'Re-open the request if it needs work, else complete this task.';

/**
 * Gives the message's classify task to the last handler of the first closed request who may take
 * it, and notifies that handler (and whoever the task went to instead). Answers the assignee.
 */
export async function tellOfMailForClosedRequests(
  trx: Trx,
  deps: { live?: LiveHub },
  input: { message: repo.InboxMessageRow; closed: RequestRow[]; taskId: string },
): Promise<string | null> {
  const { message, closed, taskId } = input;
  const task = { type: 'classifyIncomingMessage', scope: message.scope, request_number: null };
  let lastHandler: string | undefined;
  let assignee: string | null = null;
  for (const request of closed) {
    for (const userId of await repo.lastHandlersOfRequest(trx, request.request_number)) {
      lastHandler ??= userId;
      if ((await listAssignableUsers(trx, task, [userId])).length === 0) continue;
      await assignTaskTo(trx, deps, taskId, userId);
      assignee = userId;
      break;
    }
    if (assignee) break;
  }
  assignee ??= await assignTask(trx, deps, taskId);
  const numbers = closed.map((r) => r.request_number);
  const subject = message.subject ? `: "${message.subject.slice(0, 120)}"` : '';
  for (const userId of new Set([lastHandler, assignee])) {
    if (!userId) continue;
    await createNotification(trx, deps.live, {
      userId,
      type: 'closedRequestMessage',
      target: `/inbox/messages/${message.id}`,
      text: `Mail from ${senderLabel(message)} for closed request ${numbers.join(', ')}${subject}.`,
      createdBy: null,
    });
  }
  return assignee;
}
