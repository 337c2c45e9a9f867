import { describe, expect, it } from 'vitest';
import {
  isCurrentAssignedTask,
  isSystemCompletedTask,
  type RequestTaskItem,
  visibleTasks,
} from '../src/index.js';

type Task = Pick<RequestTaskItem, 'taskId' | 'completedAt' | 'completedByDisplayName' | 'isAssignedTo'>;

// The task list of a request page (issue 22 item 8): a completed task is nobody's current task, and
// tasks the workflow completed by itself are folded away unless asked for.

const open: Task = { taskId: 'a', isAssignedTo: 'harper' };
const doneByHarper: Task = {
  taskId: 'b',
  completedAt: '2026-11-20T10:00:00Z',
  completedByDisplayName: 'Harper Handler',
  isAssignedTo: 'harper',
};
const doneBySystem: Task = { taskId: 'c', completedAt: '2026-11-20T10:00:00Z' };

describe('task list rules', () => {
  it.each([
    [open, 'harper', true],
    [open, 'morgan', false],
    [open, undefined, false],
    [doneByHarper, 'harper', false],
    [{ taskId: 'a' } satisfies Task, 'harper', false],
  ])('current assigned task %#', (task, userId, expected) => {
    expect(isCurrentAssignedTask(task, userId)).toBe(expected);
  });

  it.each([
    [open, false],
    [doneByHarper, false],
    [doneBySystem, true],
  ])('system completed %#', (task, expected) => {
    expect(isSystemCompletedTask(task)).toBe(expected);
  });

  it('folds the system completed tasks away unless shown, keeping the order', () => {
    const tasks = [doneBySystem, open, doneByHarper, { ...doneBySystem, taskId: 'd' }];
    expect(visibleTasks(tasks, false)).toEqual({ tasks: [open, doneByHarper], folded: 2 });
    expect(visibleTasks(tasks, true)).toEqual({ tasks, folded: 0 });
    expect(visibleTasks([open], false)).toEqual({ tasks: [open], folded: 0 });
  });
});
