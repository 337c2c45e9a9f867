// What other features use of results.

export type { ItemAction, ItemActionContext, ItemActions } from './itemActions.js';
export { runItemAction } from './itemActions.js';
export { listRequestResults } from './list.js';
export { closeRequestRow, findResult, insertResult } from './repository.js';
export { takeRequestFile } from './requestFileChoice.js';
