import type { WorkflowRule } from '../rule.js';
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

// Every workflow rule, run in this order for an event they share. Followed-up rules of DESIGN.md
// done elsewhere: senderUrgentNote (the addNote action), classifyIncomingMessage (mail in),
// auto-close and delivery after QA (the QA action); fallback (features/assignment).
export const WORKFLOW_RULES: readonly WorkflowRule[] = [
  issueRequestOnSubmitted,
  followUpOnIssued,
  qualityAssureOnResultAdded,
  completeQualityAssureOnResultDone,
  payInvoiceOnInvoiceAdded,
  completePayInvoiceOnInvoiceDone,
  assignAddedTasks,
  appointmentReminderOnAppointment,
  exceptionOnMailFailed,
  completeTasksOnClosed,
];
