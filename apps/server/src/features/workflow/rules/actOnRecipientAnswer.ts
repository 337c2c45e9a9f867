import { createBusinessCalendar } from '@dossier/core';
import { getPublicHolidays } from '../../configuration/index.js';
import { pushTasksChanged } from '../../tasks/index.js';
import { moveOpenFollowUps } from '../repository.js';
import { payloadString, type WorkflowRule } from '../rule.js';
import { addWorkflowTask } from '../tasks.js';

// The recipient answered on the recipient's page (issue 34). "No records held" and "need more
// information or a new authority" are the handler's to act on: an exception task says so. "Ready
// by <date>": chasing before then is pointless, so the open Follow Up falls due the next business
// day after that date. Records and invoices need no rule here: they are results and invoices, and
// raise Quality Assure Result and Pay Invoice as any other.

const NOTICES: Record<string, string> = {
  noRecords:
    "The recipient answered on the recipient's page that no records are held. Tell the sender and decide how the request goes on.",
  needMoreInformation:
    "The recipient needs more information or a new authority (on the recipient's page). Read the message and act on it.",
};

export const actOnRecipientAnswer: WorkflowRule = {
  name: 'actOnRecipientAnswer',
  on: ['request.recipientAnswered'],
  addsTasks: true,
  async handle({ trx, deps, event, request }) {
    if (request.status === 'closed') return;
    const answer = payloadString(event, 'answer');
    const n = request.request_number;
    const notice = answer ? NOTICES[answer] : undefined;
    if (notice) {
      const message = payloadString(event, 'message');
      await addWorkflowTask(trx, deps, {
        type: 'exception',
        request,
        key: `recipientAnswer:${n}:${event.id}`,
        triggeredAt: event.createdAt,
        triggeredBy: null,
        notice: message ? `${notice}\n\n${message}` : notice,
      });
      return;
    }
    const readyBy = payloadString(event, 'readyBy');
    if (answer !== 'readyBy' || !readyBy) return;
    const holidays = await getPublicHolidays(trx, request.scope);
    const day = createBusinessCalendar(holidays).addBusinessDays(readyBy, 1);
    // Midnight UTC: the morning of that day in Australia, where the business calendar is.
    if (await moveOpenFollowUps(trx, n, new Date(`${day}T00:00:00Z`)))
      await pushTasksChanged(trx, deps.live, n);
  },
};
