// What other features use of requestPage.
export { addInvoice } from './actions/addInvoice.js';
export { addResult } from './actions/addResult.js';
export { runRequestAction } from './actions/run.js';
export { buildRequestSummary, loadRequestView } from './view.js';
