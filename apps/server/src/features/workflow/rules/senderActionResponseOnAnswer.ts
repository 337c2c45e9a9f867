import { isSenderTaskType, richTextPlain, SENDER_TASK_TYPES, sanitizeRichText } from '@dossier/core';
import { completeTask } from '../../assignment/index.js';
import { DEFAULT_TASK_NOTICES } from '../../tasks/index.js';
import { findNote, lockOpenSenderTasks } from '../repository.js';
import { payloadString, type WorkflowRule } from '../rule.js';
import { addWorkflowTask } from '../tasks.js';

// senderActionRequired answered by the sender -> senderActionResponse (docs/ARCHITECTURE.md). The sender (a
// submitter of the request's organisation or an external user of the request, flagged bySender by
// the action) answers either with a note on the request, which completes every open
// senderActionRequired task of the request in the sender's name, or by completing the task itself
// from the request page. Each answered task gets one senderActionResponse task for staff (keyed by
// the answered task, so the completion event that follows a note adds nothing twice), assigned by
// skills like every workflow task. Completing always happens; the new task only where workflow tasks
// are on, so this rule checks disableWorkflowTasks itself.

const EXCERPT = 300;

async function noteExcerpt(ctx: Parameters<WorkflowRule['handle']>[0]): Promise<string | undefined> {
  const noteId = payloadString(ctx.event, 'messageId');
  const note = noteId ? await findNote(ctx.trx, ctx.request.request_number, noteId) : undefined;
  const body = note?.body;
  if (!body) return undefined;
  const text = (
    body.type === 'richText' ? richTextPlain(sanitizeRichText(body.content)) : String(body.content ?? '')
  ).trim();
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text;
}

export const senderActionResponseOnAnswer: WorkflowRule = {
  name: 'senderActionResponseOnAnswer',
  on: ['request.noteAdded', 'request.taskCompleted'],
  addsTasks: false,
  async handle(ctx) {
    const { trx, deps, event, request, settings } = ctx;
    if (event.payload.bySender !== true) return;
    const answered: string[] = [];
    let notice = DEFAULT_TASK_NOTICES.senderActionResponse;
    if (event.type === 'request.taskCompleted') {
      const taskId = payloadString(event, 'taskId');
      if (!taskId || !isSenderTaskType(String(event.payload.type))) return;
      answered.push(taskId);
    } else {
      for (const task of await lockOpenSenderTasks(trx, request.request_number, SENDER_TASK_TYPES)) {
        const done = await completeTask(trx, deps, task.id, event.actor, event.createdAt, { bySender: true });
        if (done) answered.push(task.id);
      }
      const excerpt = answered.length > 0 ? await noteExcerpt(ctx) : undefined;
      if (excerpt) notice = `The sender answered with a note: ${excerpt}`;
    }
    if (settings?.disableWorkflowTasks || request.status === 'closed') return;
    for (const id of answered)
      await addWorkflowTask(trx, deps, {
        type: 'senderActionResponse',
        request,
        key: `senderActionResponse:task:${id}`,
        triggeredAt: event.createdAt,
        triggeredBy: event.actor,
        notice,
      });
  },
};
