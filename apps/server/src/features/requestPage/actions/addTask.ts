import { ADDABLE_TASK_TYPES, dueFromSettings, formatDateTime, NO_DUE_DATE } from '@dossier/core';
import { z } from 'zod';
import { recordEvent } from '../../../audit/events.js';
import { fieldsInvalid } from '../../../http/errors.js';
import { getPublicHolidays, getTaskTypeSettings } from '../../configuration/index.js';
import { canHandleRequest, touchRequest } from '../../requests/index.js';
import { DEFAULT_TASK_NOTICES, insertRequestTask, localDateTime, taskTypeName } from '../../tasks/index.js';
import { notifyTaskAdded } from '../../workflowMail/index.js';
import { defineRequestAction } from './context.js';

// Add task: a handler adds a workflow task of an addable type to the request. The due date
// is optional: without one the task type's defaultDueDateInBusinessDays applies (skipping weekends
// and the scope's public holidays); 9999-12-31 means no due date. An empty notice takes the type's
// default text.

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A due date without a time of day is due at the end of the business day. */
const DEFAULT_DUE_TIME = '17:00';

const body = z.object({
  type: z.enum(ADDABLE_TASK_TYPES, { error: 'Choose a task type.' }),
  dueDate: z
    .string()
    .regex(DATE, 'Enter a date as YYYY-MM-DD.')
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'Enter a valid date.')
    .nullish(),
  dueTime: z.string().regex(TIME, 'Enter a time as HH:MM.').nullish(),
  notice: z.string().max(10_000).nullish(),
});

export const addTask = defineRequestAction({
  name: 'addTask',
  body,
  offer({ actor, request }) {
    if (!canHandleRequest(actor, request)) return 'forbidden';
    if (request.status === 'closed') return { conflict: 'The request is closed.' };
    return 'offered';
  },
  async run(trx, { deps, actor, request }, input) {
    const now = new Date();
    let dueAt: Date;
    if (input.dueDate === NO_DUE_DATE) dueAt = new Date(`${NO_DUE_DATE}T00:00:00Z`);
    else if (input.dueDate) {
      dueAt = localDateTime(input.dueDate, input.dueTime || DEFAULT_DUE_TIME);
      if (dueAt.getTime() < now.getTime()) throw fieldsInvalid({ dueDate: 'The due date is in the past.' });
    } else {
      const [settings, holidays] = await Promise.all([
        getTaskTypeSettings(trx, request.scope, input.type),
        getPublicHolidays(trx, request.scope),
      ]);
      dueAt = dueFromSettings(now, settings, holidays);
    }
    const notice = input.notice?.trim() || DEFAULT_TASK_NOTICES[input.type];
    const n = request.request_number;
    const taskId = await insertRequestTask(trx, {
      type: input.type,
      requestNumber: n,
      scope: request.scope,
      subject: `${taskTypeName(input.type)}: ${request.applicant_name}`,
      notice,
      dueAt,
      dueFixed: Boolean(input.dueDate),
      triggeredBy: actor.id,
      triggeredAt: now,
    });
    const due =
      input.dueDate === NO_DUE_DATE ? 'no due date' : `due ${formatDateTime(dueAt, { nameZone: true })}`;
    await recordEvent(trx, {
      type: 'request.taskAdded',
      aggregateType: 'request',
      aggregateId: n,
      actor: actor.id,
      payload: {
        summary: `Added the task ${taskTypeName(input.type)} (${due}).`,
        taskId,
        type: input.type,
        notice,
      },
    });
    await touchRequest(trx, n, actor.id, now);
    await notifyTaskAdded(trx, deps.live, { actor, request, type: input.type });
    return { taskId };
  },
});
