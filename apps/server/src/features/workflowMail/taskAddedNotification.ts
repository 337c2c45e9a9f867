import type { WorkflowTaskType } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import type { LiveHub } from '../../live/hub.js';
import type { Actor } from '../auth/index.js';
import { createNotification } from '../notifications/index.js';
import type { RequestRow } from '../requests/index.js';
import { taskTypeName, usersWorkingRequest } from '../tasks/index.js';

// The requestTaskAdded notification: a task added to a request is told to the users working the
// request (the assignees of its tasks, who by the grouping rule usually get the new one too) and,
// for a senderActionRequired task, to the sender, whose task it is. The one who added it is not told.

export async function notifyTaskAdded(
  trx: DbOrTrx,
  live: LiveHub,
  input: { actor: Actor; request: RequestRow; type: WorkflowTaskType },
): Promise<void> {
  const { actor, request, type } = input;
  const n = request.request_number;
  const users = new Set(await usersWorkingRequest(trx, n));
  if (type === 'senderActionRequired') {
    const sender = request.submitted_on_behalf_of ?? request.submitted_by;
    if (sender) users.add(sender);
  }
  users.delete(actor.id);
  for (const userId of users) {
    await createNotification(trx, live, {
      userId,
      type: 'requestTaskAdded',
      target: `/requests/${n}`,
      text: `${actor.name} added the task ${taskTypeName(type)} to request ${n}.`,
      createdBy: actor,
    });
  }
}
