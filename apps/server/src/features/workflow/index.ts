// What other features use of workflow.
export { findInvoiceState, findResultState } from './repository.js';
export { completeOpenTasks } from './tasks.js';
