import { richTextPlain, sanitizeRichText } from '@dossier/core';
import { DEFAULT_TASK_NOTICES } from '../../tasks/index.js';
import { findNote } from '../repository.js';
import { payloadString, type WorkflowRule } from '../rule.js';
import { addWorkflowTask } from '../tasks.js';

// Urgent note -> a senderUrgentNote task (docs/ARCHITECTURE.md), whose notice is the beginning of the note.
// A rule like any other, so requests whose settings disableWorkflowTasks get none.

const EXCERPT = 300;

export const senderUrgentNoteOnUrgentNote: WorkflowRule = {
  name: 'senderUrgentNoteOnUrgentNote',
  on: ['request.noteAdded'],
  addsTasks: true,
  async handle({ trx, deps, event, request }) {
    const noteId = payloadString(event, 'messageId');
    if (event.payload.isUrgent !== true || !noteId || request.status === 'closed') return;
    const note = await findNote(trx, request.request_number, noteId);
    if (!note?.is_urgent_note) return;
    const { body } = note;
    const text = (
      body.type === 'richText' ? richTextPlain(sanitizeRichText(body.content)) : String(body.content ?? '')
    ).trim();
    await addWorkflowTask(trx, deps, {
      type: 'senderUrgentNote',
      request,
      key: `senderUrgentNote:note:${noteId}`,
      triggeredAt: event.createdAt,
      triggeredBy: event.actor,
      notice:
        text.length > EXCERPT
          ? `${text.slice(0, EXCERPT - 1)}…`
          : text || DEFAULT_TASK_NOTICES.senderUrgentNote,
    });
  },
};
