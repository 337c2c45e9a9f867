// What other features use of wizard.
export { searchRecipientSnapshots } from './applicantSearch.js';
export { createRequest, createRequestBodySchema } from './createRequest.js';
