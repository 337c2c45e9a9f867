import type { WorkflowRule } from '../rule.js';
import { actOnRecipientAnswer } from './actOnRecipientAnswer.js';
import { appointmentReminderOnAppointment } from './appointmentReminderOnAppointment.js';
import { assignAddedTasks } from './assignAddedTasks.js';
import { completePayInvoiceOnInvoiceDone } from './completePayInvoiceOnInvoiceDone.js';
import { completeQualityAssureOnResultDone } from './completeQualityAssureOnResultDone.js';
import { completeTasksOnClosed } from './completeTasksOnClosed.js';
import { exceptionOnMailFailed } from './exceptionOnMailFailed.js';
import { followUpOnIssued } from './followUpOnIssued.js';
import { issueRequestOnSubmitted } from './issueRequestOnSubmitted.js';
import { payInvoiceOnInvoiceAdded } from './payInvoiceOnInvoiceAdded.js';
import { qualityAssureOnResultAdded } from './qualityAssureOnResultAdded.js';
import { senderActionResponseOnAnswer } from './senderActionResponseOnAnswer.js';
import { senderUrgentNoteOnUrgentNote } from './senderUrgentNoteOnUrgentNote.js';
import { sendWorkflowMailRule } from './sendWorkflowMail.js';
import { workOnReOpened } from './workOnReOpened.js';

// Every workflow rule, run in this order for an event they share: the workflow mails come last, so
// a mail about a task names its assignee. Rules of docs/ARCHITECTURE.md done elsewhere: classifyIncomingMessage
// (mail in), auto-close after QA (the QA action, in its own transaction), fallback
// (features/assignment). Delivery of a result to the sender is the workflow mail of
// request.resultQualityAssured (or request.resultAdded when its QA is skipped).
export const WORKFLOW_RULES: readonly WorkflowRule[] = [
  issueRequestOnSubmitted,
  followUpOnIssued,
  qualityAssureOnResultAdded,
  completeQualityAssureOnResultDone,
  payInvoiceOnInvoiceAdded,
  completePayInvoiceOnInvoiceDone,
  assignAddedTasks,
  appointmentReminderOnAppointment,
  senderUrgentNoteOnUrgentNote,
  senderActionResponseOnAnswer,
  exceptionOnMailFailed,
  actOnRecipientAnswer,
  completeTasksOnClosed,
  workOnReOpened,
  sendWorkflowMailRule,
];
