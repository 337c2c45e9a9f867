import {
  API_KEYS,
  acmeHolders,
  actions,
  EVERYONE,
  type Expectation,
  either,
  type Fixtures,
  holders,
  REQUEST_HANDLERS,
  REQUEST_STAFF,
  REQUEST_VIEWERS,
  SCIM_CLIENT,
  SHARED_DIRECTORY,
  SIGNED_IN,
  scimGroup,
  scimPatch,
  scimUser,
} from './matrixCallers.js';
import { RECIPIENT_ACTIONS } from './matrixRecipient.js';

// The authorization matrix's rows for the request and its items, the public API and the rest of
// the request workflow (see matrix.ts for what a row means).

export const REQUEST_ROWS: Record<string, Expectation | Expectation[]> = {
  // ---- The request and its items
  'GET /requests/find': { allow: holders('request:view') },
  'GET /requests/search': { shows: ['applicant'], allow: holders('request:view') },
  'GET /requests/:requestNumber': { shows: ['applicant'], allow: REQUEST_VIEWERS },
  'GET /requests/:requestNumber/preview': { shows: ['applicant'], allow: REQUEST_VIEWERS },
  'GET /requests/:requestNumber/mention-suggestions': { allow: REQUEST_VIEWERS, query: 'prefix=Use' },
  'GET /requests/:requestNumber/history': { allow: REQUEST_VIEWERS },
  // The access log: administrators and managers of the request's scope (reports:view), not its handlers.
  'GET /requests/:requestNumber/access': { allow: acmeHolders('reports:view') },
  'GET /requests/:requestNumber/disclosures': { allow: acmeHolders('reports:view') },
  'GET /requests/:requestNumber/receipt': { allow: REQUEST_VIEWERS },
  'POST /requests/:requestNumber/:part': [
    {
      variant: 'applicant',
      // The submitters of the organisation edit the applicant (and content) until it is issued.
      allow: either(REQUEST_HANDLERS, ['submitterAcme']),
      params: () => ({ part: 'applicant' }),
      order: 1,
      pastAuth: [400, 409],
    },
    {
      variant: 'sender',
      allow: REQUEST_HANDLERS,
      params: () => ({ part: 'sender' }),
      order: 1,
      pastAuth: [400, 409],
    },
  ],
  'POST /requests/:requestNumber/actions/:action': actions([
    {
      variant: 'addNote',
      allow: either(REQUEST_HANDLERS, ['submitterAcme', 'externalWithRef']),
      order: 1,
      pastAuth: [400],
    },
    { variant: 'addTask', allow: REQUEST_HANDLERS, order: 1, pastAuth: [400] },
    { variant: 'addResult', allow: REQUEST_HANDLERS, order: 1, pastAuth: [400] },
    { variant: 'addInvoice', allow: REQUEST_HANDLERS, order: 1, pastAuth: [400] },
    { variant: 'reOpenRequest', allow: REQUEST_HANDLERS, order: 1, pastAuth: [409] },
    { variant: 'issueRequest', allow: REQUEST_HANDLERS, order: 2, pastAuth: [400, 409] },
    { variant: 'issueRequestAgain', allow: REQUEST_HANDLERS, order: 2, pastAuth: [400, 409] },
    { variant: 'closeRequest', allow: REQUEST_HANDLERS, order: 2, pastAuth: [400, 409] },
    // Issue 36: managers and administrators of the request's scope; a reason is required, and the
    // fixture's request is not held (409 for the removal).
    { variant: 'placeLegalHold', allow: acmeHolders('request:legalHold'), order: 1, pastAuth: [400] },
    { variant: 'removeLegalHold', allow: acmeHolders('request:legalHold'), order: 1, pastAuth: [409] },
    { variant: 'noSuchAction', allow: [], refusedAs: [401, 404] },
  ]).concat(RECIPIENT_ACTIONS),
  'GET /requests/:requestNumber/select-recipient': { allow: REQUEST_HANDLERS },
  'POST /requests/:requestNumber/recipient': {
    allow: REQUEST_HANDLERS,
    order: 1,
    body: () => ({ version: 999, recipient: { name: 'Probe', phone: '02 9000 0000' } }),
    pastAuth: [400, 409],
    validatesFirst: 'request:handle is checked before the body, the scope of the request only after version',
  },
  'GET /requests/:requestNumber/actions/issueRequest/templates': { allow: REQUEST_HANDLERS },
  'GET /requests/:requestNumber/actions/issueRequest/templates/:templateId': {
    allow: REQUEST_HANDLERS,
    params: () => ({ templateId: 'noSuchTemplate' }),
    pastAuth: [404],
  },
  'POST /requests/:requestNumber/correspondence/:messageId': {
    allow: ['submitterAcme'],
    params: (f) => ({ messageId: f.noteId }),
    order: 1,
    pastAuth: [400, 409],
  },
  // Accepting the sender of a message is a handler's; a note has no sender to accept (409).
  'POST /requests/:requestNumber/correspondence/:messageId/accept-sender': {
    allow: REQUEST_HANDLERS,
    params: (f) => ({ messageId: f.noteId }),
    order: 1,
    pastAuth: [409],
  },
  // Sharing a received message with the sender side, and taking it back, is a handler's (issue 32);
  // a note is not a received message (409).
  'POST /requests/:requestNumber/correspondence/:messageId/share-with-sender': {
    allow: REQUEST_HANDLERS,
    params: (f) => ({ messageId: f.noteId }),
    order: 1,
    pastAuth: [409],
  },
  'POST /requests/:requestNumber/correspondence/:messageId/stop-sharing-with-sender': {
    allow: REQUEST_HANDLERS,
    params: (f) => ({ messageId: f.noteId }),
    order: 1,
    pastAuth: [409],
  },
  'GET /requests/:requestNumber/results/:resultId': [
    { variant: 'quality assured', shows: ['result'], allow: REQUEST_VIEWERS },
    {
      variant: 'awaiting QA',
      shows: ['pendingResult'],
      allow: REQUEST_STAFF,
      params: (f) => ({ resultId: f.pendingResultId }),
    },
  ],
  'POST /requests/:requestNumber/results/:resultId/actions/:action': actions([
    { variant: 'qualityAssure', allow: REQUEST_HANDLERS, order: 1, pastAuth: [400, 409] },
    { variant: 'discard', allow: REQUEST_HANDLERS, order: 2, pastAuth: [400, 409] },
  ]),
  'GET /requests/:requestNumber/invoices/:invoiceId': { shows: ['invoice'], allow: REQUEST_STAFF },
  'POST /requests/:requestNumber/invoices/:invoiceId/actions/:action': actions([
    { variant: 'pay', allow: REQUEST_HANDLERS, order: 1, pastAuth: [400, 409] },
    { variant: 'discard', allow: REQUEST_HANDLERS, order: 2, pastAuth: [400, 409] },
  ]),

  // ---- New requests and drafts (request:submit; a draft is its author's)
  'GET /requests/new': { allow: holders('request:submit') },
  'GET /requests/new/:draftId': { shows: ['draft'], allow: ['submitterAcme'] },
  'PUT /drafts/:draftId': {
    allow: ['submitterAcme'],
    validatesFirst: 'request:submit is checked before the body, whose draft it is only after',
    order: 1,
    body: () => ({ completedStep: 0, data: {} }),
  },
  'DELETE /drafts/:draftId': { allow: ['submitterAcme'], order: 2 },
  'GET /requests/new/sender/:organization/data': { allow: acmeHolders('request:submit') },
  'GET /applicants/:organization/search': {
    shows: ['applicant'],
    allow: acmeHolders('request:submit'),
    query: 'name=Quintessa',
  },
  'POST /requests': { allow: holders('request:submit'), order: 1, pastAuth: [400] },

  // ---- Dashboard (every signed-in user; lists filtered to what the caller may see)
  'GET /dashboard': { allow: SIGNED_IN },
  'GET /dashboard/:bind': ['activeTasks', 'correspondence', 'results', 'closedRequests', 'openRequests'].map(
    (bind) => ({ variant: bind, allow: SIGNED_IN, params: () => ({ bind }) }),
  ),

  // ---- Reports (reports:view; rows of the caller's report scopes)
  ...Object.fromEntries(
    [
      'tasks/completed',
      'tasks/active',
      'requests/closed',
      'requests/open',
      'invoices/paid',
      'request-results',
      'users',
      'access-log',
    ].flatMap((report) => {
      // The request-results report also needs request:view:content, which every reports:view role has.
      const allow = holders('reports:view');
      return [
        [`GET /reports/${report}`, { allow }],
        [`GET /reports/${report}/filter`, { allow, pastAuth: [400] }],
      ];
    }),
  ),
  'GET /results/download-files': { shows: ['result'], allow: holders('file:view:markAsDownloaded') },

  // ---- Task skills (task:skills within the user's scope)
  'GET /tasks/skills/levels': { allow: holders('task:skills') },
  'GET /tasks/skills/status': { allow: holders('task:skills') },
  'POST /tasks/skills': {
    allow: acmeHolders('task:skills'),
    order: 1,
    body: () => ({ users: [{ userId: 'mx-handleracme', scope: '/org/acme/', skillLevels: {} }] }),
    pastAuth: [400],
    validatesFirst: 'task:skills is checked before the body, the scope of each user only after it',
  },

  // ---- Inbox (the inbox permission; the acme message is linked to the acme request)
  'GET /inbox': { allow: holders('inbox') },
  'GET /inbox/search': {
    shows: ['inbox'],
    allow: holders('inbox'),
  },
  'GET /inbox/messages/:messageId': {
    shows: ['inbox'],
    allow: acmeHolders('inbox'),
    params: (f) => ({ messageId: f.inboxMessageId }),
  },
  // The message is acme's (linked to the acme request): other inbox users are told it does not exist.
  'GET /inbox/messages/:messageId/actions/link/:requestNumber': {
    allow: acmeHolders('inbox'),
    params: (f) => ({ messageId: f.inboxMessageId }),
  },
  'POST /inbox/messages/:messageId/actions/:action': [
    {
      variant: 'link',
      allow: acmeHolders('inbox'),
      params: (f: Fixtures) => ({ messageId: f.inboxMessageId, action: 'link' }),
      body: (f: Fixtures) => ({ requestNumber: f.requestNumber }),
      validatesFirst: 'the inbox permission is checked first; the request is named by the body',
      order: 1,
      pastAuth: [400, 409],
    },
    {
      variant: 'unlink',
      allow: acmeHolders('inbox'),
      params: (f: Fixtures) => ({ messageId: f.inboxMessageId, action: 'unlink' }),
      body: (f: Fixtures) => ({ requestNumber: f.requestNumber }),
      validatesFirst: 'the inbox permission is checked first; the request is named by the body',
      order: 2,
      // The first allowed caller unlinks it, and the message goes back to the inbox's scope (the
      // root): the next acme caller is told it is no longer linked, or that there is no such message.
      pastAuth: [400, 404, 409],
    },
  ],

  // ---- Public API (a key of /org/acme/ reaches acme requests; a key elsewhere gets 404)
  'POST /api/v1/requests': { allow: API_KEYS, order: 1, pastAuth: [400] },
  'GET /api/v1/requests/:requestNumber': { shows: ['applicant'], allow: ['apiAcme'] },
  'GET /api/v1/requests/:requestNumber/results': { shows: ['result'], allow: ['apiAcme'] },
  'GET /api/v1/requests/:requestNumber/results/:resultId/file': { allow: ['apiAcme'] },
  'POST /api/v1/requests/:requestNumber/results': {
    allow: ['apiAcme'],
    order: 1,
    body: (f) => ({ file: { key: f.apiFileKey }, tags: { documentType: 'Medical records' } }),
    pastAuth: [400, 409],
    validatesFirst: 'file is required before the request is looked up (the API scope is checked first)',
  },
  'GET /api/v1/requests/:requestNumber/invoices': { shows: ['invoice'], allow: ['apiAcme'] },
  'POST /api/v1/requests/:requestNumber/invoices': {
    allow: ['apiAcme'],
    order: 1,
    body: (f) => ({ file: { key: f.apiFileKey }, tags: { invoiceType: 'Records fee' } }),
    pastAuth: [400, 409],
    validatesFirst: 'file is required before the request is looked up (the API scope is checked first)',
  },
  'POST /api/v1/requests/:requestNumber/invoices/:invoiceId/payment-confirmation': {
    allow: ['apiAcme'],
    order: 1,
    pastAuth: [400, 409],
  },
  'POST /api/v1/files': { allow: API_KEYS, order: 1, pastAuth: [400] },
  'GET /api/v1/files/:key': { allow: ['apiAcme'], params: (f) => ({ key: f.apiFileKey }) },
  'GET /api/v1/payees': {
    shows: ['payee'],
    allow: [...API_KEYS, 'apiAcmePayeesOnly'],
    mayShow: SHARED_DIRECTORY,
  },
  'GET /api/v1/payees/:payeeId': { allow: [...API_KEYS, 'apiAcmePayeesOnly'], mayShow: SHARED_DIRECTORY },
  'POST /api/v1/payees': { allow: API_KEYS, order: 1, pastAuth: [400] },
  'PUT /api/v1/payees/:payeeId': {
    allow: ['apiAcme'],
    order: 1,
    pastAuth: [400],
  },
  // The other key is answered valid: false (a user outside its scope), never the user.
  'POST /api/v1/users/credentials/verify': {
    shows: ['userEmail'],
    allow: API_KEYS,
    order: 1,
    body: (f) => ({ userId: f.userId, password: 'Correct-Horse-9' }),
  },
  // ---- SCIM (issue 17). Its discovery endpoints describe the service only. Everything else takes a
  // SCIM client's bearer token: sessions and API keys get SCIM's 401. The one caller holding one is
  // acme's client (scimAcme, its token taken by adminAcme); it is called with the acme user who also
  // holds a role at globex, whom the user screens refuse to adminAcme (issue 32): that user does not
  // exist for it (404), lists and groups leave it out (NEVER_SHOWN), a create colliding with it is a
  // bare uniqueness error, and a group cannot take it in (400, invalidValue). One client's token
  // against another scope's users is covered in scimInput.test.ts.
  'GET /scim/v2/ServiceProviderConfig': { allow: EVERYONE },
  'GET /scim/v2/ResourceTypes': { allow: EVERYONE },
  'GET /scim/v2/ResourceTypes/:id': { allow: EVERYONE, params: () => ({ id: 'User' }) },
  'GET /scim/v2/Schemas': { allow: EVERYONE },
  'GET /scim/v2/Schemas/:id': {
    allow: EVERYONE,
    params: () => ({ id: 'urn:ietf:params:scim:schemas:core:2.0:User' }),
  },
  'GET /scim/v2/Users': { allow: SCIM_CLIENT, query: 'count=500', shows: ['userName'], refusedAs: [401] },
  'POST /scim/v2/Users': {
    allow: SCIM_CLIENT,
    refusedAs: [401],
    body: (f) => scimUser(f.dualUserId, `${f.dualUserId}@test.example`),
    pastAuth: [409],
  },
  'GET /scim/v2/Users/:id': { allow: [], params: (f) => ({ id: f.dualUserId }), refusedAs: [401, 404] },
  'PUT /scim/v2/Users/:id': {
    allow: [],
    params: (f) => ({ id: f.dualUserId }),
    body: (f) => scimUser(f.dualUserId, 'taken.over@evil.example'),
    refusedAs: [401, 404],
    validatesFirst: "SCIM's contract checks the body's shape before the user is looked up (names no user)",
  },
  'PATCH /scim/v2/Users/:id': [
    {
      variant: 'emails',
      allow: [],
      params: (f) => ({ id: f.dualUserId }),
      body: () => scimPatch('replace', 'emails', [{ value: 'taken.over@evil.example', primary: true }]),
      refusedAs: [401, 404],
    },
    {
      variant: 'active',
      allow: [],
      params: (f) => ({ id: f.dualUserId }),
      body: () => scimPatch('replace', 'active', false),
      refusedAs: [401, 404],
    },
  ],
  'DELETE /scim/v2/Users/:id': { allow: [], params: (f) => ({ id: f.dualUserId }), refusedAs: [401, 404] },
  'GET /scim/v2/Groups': { allow: SCIM_CLIENT, shows: ['userName'], refusedAs: [401] },
  'POST /scim/v2/Groups': {
    allow: [],
    body: (f) => scimGroup('Matrix new group', [f.dualUserId]),
    refusedAs: [400, 401],
  },
  'GET /scim/v2/Groups/:id': {
    allow: SCIM_CLIENT,
    params: (f) => ({ id: f.scimGroupId }),
    shows: ['userName'],
    refusedAs: [401],
  },
  'PUT /scim/v2/Groups/:id': {
    allow: [],
    params: (f) => ({ id: f.scimGroupId }),
    body: (f) => scimGroup('Matrix SCIM group', [f.userId, f.dualUserId]),
    refusedAs: [400, 401],
  },
  'PATCH /scim/v2/Groups/:id': {
    allow: [],
    params: (f) => ({ id: f.scimGroupId }),
    body: (f) => scimPatch('add', 'members', [{ value: f.dualUserId }]),
    refusedAs: [400, 401],
  },
  // The client's own group goes with its members out of the group; roles of the dual user stay.
  'DELETE /scim/v2/Groups/:id': { allow: [], params: (f) => ({ id: f.dualUserId }), refusedAs: [401, 404] },
  // A template on the screen rendered over the newest acme request the caller may see: reads only.
  'POST /admin/configuration/edit/:c/template-preview': {
    allow: acmeHolders('configuration:view'),
    params: (f) => ({ c: f.configurationId }),
    body: () => ({ subject: 'Request ${request.requestNumber}' }),
  },
  // The token of acme's SCIM client: the configuration editors of acme see whether there is one and
  // make a new one (shown once).
  'GET /admin/configuration/edit/:c/:id/scim-token': {
    allow: acmeHolders('configuration:edit'),
    params: (f) => ({ c: f.configurationId, id: f.scimEntryId }),
  },
  'POST /admin/configuration/edit/:c/:id/scim-token': {
    allow: acmeHolders('configuration:edit'),
    params: (f) => ({ c: f.configurationId, id: f.scimEntryId }),
    order: 1,
  },
  'GET /api/v1/openapi.json': { allow: EVERYONE },
  'GET /api/v1/docs': { allow: EVERYONE },
  ...Object.fromEntries(
    ['GET', 'TRACE', 'DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'QUERY'].map((method) => [
      `${method} /api/v1/*`,
      { allow: [], params: () => ({ '*': 'no-such-endpoint' }), refusedAs: [401, 404, 405] },
    ]),
  ),
};
