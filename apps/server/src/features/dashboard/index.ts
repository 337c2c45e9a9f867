// What other features use of dashboard.
export { dueWindow } from './service.js';
