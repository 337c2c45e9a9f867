import { z } from 'zod';
import type { RequestTaskItem } from '../requests/views.js';
import { WORKFLOW_TASK_TYPES } from '../tasks.js';
import { USER_ID_MAX_LENGTH } from '../validators.js';
import { answerRequestQuery } from './requestPage.js';
import { requestViewSchema } from './requests.js';
import { defineRoute } from './route.js';
import { typed } from './view.js';

// A task assigned to the user, as the task list shows it and as it is pushed live, and the routes
// that list and move tasks.

export const assignedTaskSchema = z.object({
  $type: z.literal('workflowTask'),
  taskId: z.string(),
  type: z.enum(WORKFLOW_TASK_TYPES),
  subject: z.string(),
  requestNumber: z.string().nullable(),
  messageId: z.string().nullable(),
  dueAt: z.string().nullable(),
  isOverdue: z.boolean(),
  isAssignedTo: z.string().nullable(),
});
export type AssignedTask = z.infer<typeof assignedTaskSchema>;

/** The tasks assigned to the user (the task list of the shell). */
export const assignedTasksRoute = defineRoute({
  method: 'GET',
  path: '/tasks/assigned',
  answer: z.object({ tasks: z.array(assignedTaskSchema) }),
});

const taskParams = z.object({ taskId: z.string().max(30) });
const taskItem = typed<RequestTaskItem>();

/**
 * A task's action answers `{ task }`; asked with `?answer=request` (the request page), the request
 * view as it is after the commit beside it. A task without a request answers `{ task }` either way.
 */
const taskAnswer = z.union([
  z.strictObject({ task: taskItem }),
  requestViewSchema.extend({ task: taskItem }),
]);

function taskMove<P extends string>(path: P) {
  return defineRoute({
    method: 'POST',
    path,
    params: taskParams,
    query: answerRequestQuery,
    answer: taskAnswer,
  });
}

export const completeTaskRoute = taskMove('/tasks/:taskId/complete');
export const markTaskInProgressRoute = taskMove('/tasks/:taskId/mark-in-progress');
export const claimTaskRoute = taskMove('/tasks/:taskId/claim');
export const releaseTaskRoute = taskMove('/tasks/:taskId/release');

export const assignTaskRoute = defineRoute({
  method: 'POST',
  path: '/tasks/:taskId/assign',
  params: taskParams,
  query: answerRequestQuery,
  // No user id holds a control character; refusing them here keeps them from the database. The
  // user is checked in the action, after the caller: someone who may not assign the task learns
  // nothing from the form's errors.
  body: z.object({ userId: z.string().max(USER_ID_MAX_LENGTH).default('') }),
  answer: taskAnswer,
});

export const taskAssigneeSchema = z.object({
  userId: z.string(),
  name: z.string(),
  openTasks: z.number(),
  isAssignee: z.boolean(),
});
export type TaskAssignee = z.infer<typeof taskAssigneeSchema>;

/** Whom the task may go to (the assign picker). */
export const taskAssigneesRoute = defineRoute({
  method: 'GET',
  path: '/tasks/:taskId/assignees',
  params: taskParams,
  answer: z.object({ assignees: z.array(taskAssigneeSchema) }),
});
