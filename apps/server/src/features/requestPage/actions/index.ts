// Every request action registers itself when its module loads; list each action module here.
// The request files' owner (requests/files.ts) registers itself with the requests feature.
import '../../requests/index.js';
import './addResult.js';
import './addInvoice.js';
import './issueRequest.js';
import './addTask.js';
import './addNote.js';
import './closeRequest.js';
import './reOpenRequest.js';
