import type { RequestTaskItem } from './views.js';

// What the task list of a request page shows of each task (issue 22 item 8).

/**
 * A task the workflow completed by itself, with no person completing it: the Fallback task that
 * the engine closes once every task has an assignee, for one. They are folded away by default so
 * that the work people did stays in view.
 */
export function isSystemCompletedTask(task: Pick<RequestTaskItem, 'completedAt' | 'completedByDisplayName'>) {
  return Boolean(task.completedAt) && !task.completedByDisplayName;
}

/** "Current Assigned Task": the user's own open task, not one already completed. */
export function isCurrentAssignedTask(
  task: Pick<RequestTaskItem, 'completedAt' | 'isAssignedTo'>,
  userId: string | undefined,
): boolean {
  return !task.completedAt && userId !== undefined && task.isAssignedTo === userId;
}

/** The tasks the list shows: all, or all but the folded system tasks; and how many are folded. */
export function visibleTasks<T extends Pick<RequestTaskItem, 'completedAt' | 'completedByDisplayName'>>(
  tasks: readonly T[],
  showSystemTasks: boolean,
): { tasks: T[]; folded: number } {
  if (showSystemTasks) return { tasks: [...tasks], folded: 0 };
  const shown = tasks.filter((task) => !isSystemCompletedTask(task));
  return { tasks: shown, folded: tasks.length - shown.length };
}
