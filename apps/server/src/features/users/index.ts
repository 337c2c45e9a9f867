// What other features use of user administration.
export { settleDisabledUser } from './disable.js';
