import { remindAppointment } from '../reminders.js';
import { payloadString, type WorkflowRule } from '../rule.js';

// Appointment added -> its appointmentReminder is raised one business day before the appointment.
// Usually that day is still ahead and the reminder sweep raises it then; an appointment added for
// today or the next business day gets its reminder right away.

export const appointmentReminderOnAppointment: WorkflowRule = {
  name: 'appointmentReminderOnAppointment',
  on: ['request.taskAdded'],
  addsTasks: true,
  async handle({ trx, deps, event, request }) {
    const taskId = payloadString(event, 'taskId');
    if (!taskId || event.payload.type !== 'appointment') return;
    await remindAppointment(trx, deps, request, taskId, event.createdAt);
  },
};
