// What other features use of tasks.
export { workflowDueAt } from './due.js';
export { isMovable, MAY_NOT_ASSIGN, mayAssignTask, NOT_YOURS } from './policy.js';
export { completeTaskRow, insertWorkflowTask, TASK_COLUMNS, type Workable } from './repository.js';
export {
  DEFAULT_TASK_NOTICES,
  insertRequestTask,
  listPendingTasks,
  listTasksOfRequest,
  localDateTime,
  RECIPIENT_TASK_TYPES,
  REQUEST_TASKS_LIMIT,
  selectTaskItems,
  taskTypeName,
  toRequestTaskItem,
  usersWorkingRequest,
} from './requestTasks.js';
export { listAssignedTasks, pushTask } from './service.js';
export { pushTasksChanged, recordTaskAdded, recordTaskCompleted } from './taskEvents.js';
