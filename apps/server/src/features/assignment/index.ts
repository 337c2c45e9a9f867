// What other features use of assignment.
export { holdsHandlingRole, userNames } from './repository.js';
export type { AssignmentDeps, ReassignReason } from './service.js';
export {
  assignTask,
  assignTaskTo,
  completeTask,
  listAssignableUsers,
  REASSIGN_QUEUE,
  reassignOpenTasks,
  releaseTask,
  runReassignment,
  whyNotAssignable,
} from './service.js';
