// Every request action registers itself when its module loads; list each action module here.
import '../../requests/files.js';
import './addResult.js';
import './addInvoice.js';
import './issueRequest.js';
import './addTask.js';
import './addNote.js';
import './closeRequest.js';
import './reOpenRequest.js';
