// What other features use of the access log: whether the request page offers the Access tab.
export { mayViewAccessLog } from './policy.js';
