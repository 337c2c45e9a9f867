// What other features use of requestPage.
import './actions/index.js';

export { runRequestAction } from './actions/run.js';
export { buildRequestSummary } from './view.js';
