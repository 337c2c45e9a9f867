// What other features use of the configuration: the cached configurations and who may edit them.
export { configurationsFor } from './cache.js';
export { assertCanEdit } from './policy.js';
