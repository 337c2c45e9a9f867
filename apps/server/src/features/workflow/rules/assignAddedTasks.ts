import { assignTask } from '../../assignment/index.js';
import { pushTasksChanged } from '../../tasks/index.js';
import { findTaskType } from '../repository.js';
import { payloadString, type WorkflowRule } from '../rule.js';

// Tasks a person adds from the request page (Add task) are created unassigned in the action's
// transaction; they are assigned here, like workflow tasks, and whoever has the request open sees
// the assignee. A task that already has an assignee (a workflow task, assigned when it was added)
// is left alone: assigning it again could move it.

export const assignAddedTasks: WorkflowRule = {
  name: 'assignAddedTasks',
  on: ['request.taskAdded'],
  addsTasks: false,
  async handle({ trx, deps, event, request }) {
    const taskId = payloadString(event, 'taskId');
    if (!taskId || !/^\d+$/.test(taskId)) return;
    const task = await findTaskType(trx, taskId);
    if (!task || task.completed_at || task.assigned_to) return;
    if (await assignTask(trx, deps, taskId)) await pushTasksChanged(trx, deps.live, request.request_number);
  },
};
