// What other features use of accountTokens.
export { insertToken, retireTokens, useToken } from './repository.js';
export { tokenHash } from './tokenHash.js';
