// What other features use of passwordReset.
export { issueSetPasswordLink } from './service.js';
