import { assignTask } from '../../assignment/service.js';
import { listUnassignedUrgentNoteTasks } from '../repository.js';
import { payloadString, type WorkflowRule } from '../rule.js';

// Tasks that request actions add themselves (Add task; the senderUrgentNote of an urgent note) are
// created unassigned in the action's transaction; they are assigned here, like workflow tasks.

export const assignAddedTasks: WorkflowRule = {
  name: 'assignAddedTasks',
  on: ['request.taskAdded', 'request.noteAdded'],
  addsTasks: false,
  async handle({ trx, deps, event, request }) {
    const ids: string[] = [];
    const taskId = payloadString(event, 'taskId');
    if (event.type === 'request.taskAdded' && taskId) ids.push(taskId);
    if (event.type === 'request.noteAdded' && event.payload.isUrgent === true) {
      ids.push(...(await listUnassignedUrgentNoteTasks(trx, request.request_number)));
    }
    for (const id of ids) await assignTask(trx, deps, id);
  },
};
