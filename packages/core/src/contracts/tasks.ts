import { z } from 'zod';
import { WORKFLOW_TASK_TYPES } from '../tasks.js';

// A task assigned to the user, as the task list shows it and as it is pushed live.

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
