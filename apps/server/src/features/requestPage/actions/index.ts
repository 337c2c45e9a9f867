import { actionRegistry } from '../../../http/actions.js';
import { addInvoice } from './addInvoice.js';
import { addNote } from './addNote.js';
import { addResult } from './addResult.js';
import { addTask } from './addTask.js';
import { closeRequest } from './closeRequest.js';
import { issueRequest, issueRequestAgain } from './issueRequest.js';
import { placeLegalHold, removeLegalHold } from './legalHold.js';
import { resendRecipientAccess, revokeRecipientAccess } from './recipientAccess.js';
import { reOpenRequest } from './reOpenRequest.js';

// Every action of the request page, in the order the page offers them. A new action is a file of
// its own, listed here.
export const requestActions = actionRegistry([
  addResult,
  addInvoice,
  issueRequest,
  issueRequestAgain,
  addTask,
  addNote,
  closeRequest,
  reOpenRequest,
  placeLegalHold,
  removeLegalHold,
  revokeRecipientAccess,
  resendRecipientAccess,
]);
