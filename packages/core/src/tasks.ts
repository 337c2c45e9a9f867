import type { AssignedTask } from './contracts/tasks.js';

export const WORKFLOW_TASK_TYPES = [
  'senderActionRequired',
  'senderActionResponse',
  'senderUrgentNote',
  'issueRequest',
  'confirmIssuedRequest',
  'followUp',
  'classifyIncomingMessage',
  'qualityAssureResult',
  'payInvoice',
  'appointment',
  'appointmentReminder',
  'actionDeferred',
  'exception',
  'fallback',
] as const;
export type WorkflowTaskType = (typeof WORKFLOW_TASK_TYPES)[number];

export const ADDABLE_TASK_TYPES = WORKFLOW_TASK_TYPES.filter(
  (t) => t !== 'senderUrgentNote' && t !== 'classifyIncomingMessage' && t !== 'fallback',
);
export const TRAINABLE_TASK_TYPES = WORKFLOW_TASK_TYPES.filter((t) => t !== 'senderActionRequired');
/**
 * The sender's own tasks: the types no staff member can be trained for. They are never assigned
 * to staff (nor raise a fallback); the request's sender answers them.
 */
export const SENDER_TASK_TYPES: readonly WorkflowTaskType[] = WORKFLOW_TASK_TYPES.filter(
  (t) => !(TRAINABLE_TASK_TYPES as readonly string[]).includes(t),
);

export function isSenderTaskType(type: string): boolean {
  return (SENDER_TASK_TYPES as readonly string[]).includes(type);
}

/** A due date on this day means the task has none; it is shown as an infinite mark. */
export const NO_DUE_DATE = '9999-12-31';

export function hasNoDueDate(dueAt: string | null | undefined): boolean {
  return typeof dueAt === 'string' && dueAt.startsWith(NO_DUE_DATE);
}

/** Where an assigned task leads: its request, or the inbox message when it has no request. */
export function taskTarget(task: Pick<AssignedTask, 'requestNumber' | 'messageId'>): string | undefined {
  if (task.requestNumber) return `/requests/${task.requestNumber}`;
  if (task.messageId) return `/inbox/messages/${encodeURIComponent(task.messageId)}`;
  return undefined;
}

/**
 * Applies a pushed task to the assigned list: a task assigned to the user is added (or replaced),
 * one no longer assigned to the user (or completed) is removed.
 */
export function applyTaskPush(list: AssignedTask[], task: AssignedTask, userId: string): AssignedTask[] {
  const rest = list.filter((t) => t.taskId !== task.taskId);
  const active = task.dueAt !== null;
  return task.isAssignedTo === userId && active ? [...rest, task] : rest;
}

// Task skills: per user and trainable task type a level and a status; a row of the task
// skills pages, as the server answers it and the page edits it.
export type SkillLevel = 'untrained' | 'trained';
export type SkillStatus = 'inactive' | 'active';
export type SkillsMode = 'levels' | 'status';

export interface SkillUser {
  id: string;
  userId: string;
  name: string;
  scope: string;
  permissions: string[];
  isOnline: boolean;
  skillLevels: Record<string, SkillLevel>;
  skillStatus: Record<string, SkillStatus>;
}
