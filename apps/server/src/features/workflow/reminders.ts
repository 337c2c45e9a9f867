import {
  dateInTimeZone,
  dueAfterBusinessDays,
  formatDate,
  hasNoDueDate,
  type RequestRecipient,
  renderRichTextTemplate,
  renderTemplate,
  sanitizeRichText,
} from '@dossier/core';
import type { Db, DbOrTrx, Trx } from '../../db/database.js';
import { enqueueMail } from '../../mail/outbox.js';
import { richTextToHtml, richTextToText } from '../../mail/richText.js';
import type { AssignmentDeps } from '../assignment/index.js';
import { getEffectiveTemplate, getPublicHolidays, getRequestSettings } from '../configuration/index.js';
import { type RecipientLinkConfig, type ReminderLinkUse, reminderLinkOf } from '../recipientAccess/index.js';
import { localDateTime } from '../tasks/index.js';
import * as repo from './repository.js';
import { addWorkflowTask } from './tasks.js';

// The time-driven rules (issue 6 item 9), run by the engine's sweep every minute:
// - autoReminder: while a followUp is overdue, the recipient gets a reminder email (the autoReminder
//   template of the request's configuration, else a plain text), never on two consecutive days. The
//   followUp is due its business days after the request was sent, so the reminders count from then.
//   It carries the link of the recipient's page while that works (recipientAccess/reminder.ts), the
//   passcode in a second mail to the same address.
// - appointmentReminder: one business day before an appointment, a reminder task due when the
//   appointment is.

const SWEEP_BATCH = 100;
/** Appointments further away than this cannot be one business day off (weekends and holidays). */
const APPOINTMENT_HORIZON_DAYS = 10;

function previousDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

export async function sweepReminders(
  db: Db,
  // The app's address and the keys of the recipient's links, which the reminders print.
  deps: AssignmentDeps & { config: RecipientLinkConfig },
  now = new Date(),
) {
  let autoReminders = 0;
  let linksSealedElsewhere = 0;
  for (const followUp of await repo.listOverdueFollowUps(db, now, SWEEP_BATCH)) {
    const sent = await db
      .transaction()
      .execute((trx) => sendAutoReminder(trx, followUp.id, now, deps.config));
    if (sent) autoReminders++;
    if (sent === 'linkSealedElsewhere') linksSealedElsewhere++;
  }
  let appointmentReminders = 0;
  const until = new Date(now.getTime() + APPOINTMENT_HORIZON_DAYS * 86_400_000);
  for (const appointment of await repo.listAppointmentsNeedingReminder(db, now, until, SWEEP_BATCH)) {
    const added = await db.transaction().execute(async (trx) => {
      const request = await repo.findRequestForWorkflow(trx, appointment.request_number as string);
      return request ? remindAppointment(trx, deps, request, appointment.id, now) : false;
    });
    if (added) appointmentReminders++;
  }
  return { autoReminders, appointmentReminders, linksSealedElsewhere };
}

/**
 * Sends today's reminder for an overdue followUp, unless one went today or yesterday. Answers
 * whether it went; 'linkSealedElsewhere' when it went without the link, sealed under a key this
 * instance does not hold.
 */
export async function sendAutoReminder(
  trx: Trx,
  followUpId: string,
  now: Date,
  config: RecipientLinkConfig,
): Promise<boolean | 'linkSealedElsewhere'> {
  const task = await repo.findTaskType(trx, followUpId);
  if (!task?.request_number || task.completed_at || !task.due_at || task.due_at >= now) return false;
  const request = await repo.findRequestForWorkflow(trx, task.request_number);
  if (request?.status !== 'open' || !request.issued_at) return false;
  const settings = await getRequestSettings(trx, request.scope);
  if (settings?.disableWorkflowTasks) return false;
  const { recipient } = request;
  const to = recipient.contact?.email || recipient.email;
  if (!to) return false;
  const today = dateInTimeZone(now);
  if (await repo.remindedSince(trx, followUpId, previousDay(today))) return false;
  // Claim the day first: of two instances sweeping at once, one inserts and sends.
  if (!(await repo.recordReminder(trx, followUpId, today, null))) return false;
  const link = await reminderLinkOf(trx, config, request);
  const mail = await renderAutoReminder(trx, request, recipient, link);
  const outboxId = await enqueueMail(trx, { to, ...mail, requestNumber: request.request_number });
  await link.mailPasscode(trx, to);
  await repo.setReminderOutbox(trx, followUpId, today, outboxId);
  return link.sealedElsewhere ? 'linkSealedElsewhere' : true;
}

async function renderAutoReminder(
  trx: DbOrTrx,
  request: repo.WorkflowRequest,
  recipient: RequestRecipient,
  link: ReminderLinkUse,
) {
  const sentOn = (request.issued_at as Date).toISOString();
  const data = {
    product: 'Dossier',
    now: new Date().toISOString(),
    request: {
      requestNumber: request.request_number,
      issuedAt: sentOn,
      submittedAt: request.submitted_at.toISOString(),
      applicant: { name: request.applicant_name },
      recipient: { name: recipient.name, email: recipient.contact?.email || recipient.email || '' },
      recipientAccess: link.data,
    },
  };
  const fallbackSubject = `Reminder: request ${request.request_number}`;
  const template = await getEffectiveTemplate(trx, request.scope, 'autoReminder');
  if (template) {
    const source = link.fit(sanitizeRichText(template.data.body));
    const body = sanitizeRichText(renderRichTextTemplate(source, data));
    const text = richTextToText(body).trim();
    if (text)
      return {
        subject: renderTemplate(template.data.subject ?? '', data).trim() || fallbackSubject,
        text,
        html: richTextToHtml(body),
      };
  }
  const sent = formatDate(request.issued_at as Date);
  return {
    subject: fallbackSubject,
    text: `Dear ${recipient.name},\n\nWe are still waiting for the records of request ${request.request_number} (applicant ${request.applicant_name}), sent to you on ${sent}. Please reply quoting the request number.${link.sentence ? `\n\n${link.sentence}` : ''}`,
  };
}

/**
 * Raises the appointmentReminder of an appointment task once its day has come (one business day
 * before the appointment, with the scope's holidays). Answers whether it was raised now.
 */
export async function remindAppointment(
  trx: Trx,
  deps: AssignmentDeps,
  request: repo.WorkflowRequest,
  appointmentId: string,
  now: Date,
): Promise<boolean> {
  const appointment = await repo.findTaskType(trx, appointmentId);
  if (!appointment?.due_at || appointment.completed_at || appointment.type !== 'appointment') return false;
  if (hasNoDueDate(appointment.due_at.toISOString()) || appointment.due_at <= now) return false;
  const settings = await getRequestSettings(trx, request.scope);
  if (settings?.disableWorkflowTasks || request.status === 'closed') return false;
  const holidays = await getPublicHolidays(trx, request.scope);
  if (now < reminderTime(appointment.due_at, holidays)) return false;
  const id = await addWorkflowTask(trx, deps, {
    type: 'appointmentReminder',
    request,
    key: `appointmentReminder:task:${appointmentId}`,
    triggeredAt: now,
    triggeredBy: null,
    dueAt: appointment.due_at,
  });
  return id !== undefined;
}

/** Midnight starting the business day before the appointment's day (in the organisation's zone). */
export function reminderTime(appointmentAt: Date, holidays: readonly string[]): Date {
  return localDateTime(dateInTimeZone(dueAfterBusinessDays(appointmentAt, -1, holidays)), '00:00');
}
