import { createRequestNumber, type Permission, permissionsOfRole } from '@dossier/core';

// The authorization matrix: for every route of the app's route table ("METHOD /path"), which caller
// may pass its authorization when the route is called with the ids of objects of /org/acme/.
// matrix.test.ts reads the route table, so a route without an entry here (or in EXCLUDED) fails.
//
// A cell is allowed: the answer is 2xx/3xx, or one of the entry's `pastAuth` statuses (a 400 for a
// minimal body, a 409 for an action whose state no longer allows it: the caller got past the check).
// A cell is refused: 401 for anonymous (and for a session on the public API, a key on a page
// route), 403 or 404 for anyone else, and the body names none of the acme objects.
// An allowed cell of a caller with no right in /org/acme/ (an "outsider") must not show acme
// objects either (lists and searches are filtered), unless `mayShow` says why; an allowed acme
// caller must show what `shows` names (so the outsiders' check can fail at all) and nothing of
// NEVER_SHOWN. A write leaves the acme objects' tables unchanged until its first allowed caller.
// A refused caller's 400 (input validated before the caller is checked) fails unless
// `validatesFirst` explains it; known defects are run, skipped and printed.

export const CALLERS = [
  'anonymous',
  'submitterAcme',
  'submitterGlobex',
  'externalWithRef',
  'externalOtherRef',
  'handlerAcme',
  'handlerGlobex',
  'managerAcme',
  'managerGlobex',
  'adminAcme',
  'adminGlobex',
  'newcomer',
  'apiAcme',
  'apiGlobex',
  /** A key of /org/acme/ with the API scope payeeRead only. */
  'apiAcmePayeesOnly',
] as const;
export type Caller = (typeof CALLERS)[number];

/** The roles of each session caller (the API keys hold every API scope at their organisation). */
export const CALLER_ROLES: Record<
  Exclude<Caller, 'anonymous' | 'apiAcme' | 'apiGlobex' | 'apiAcmePayeesOnly'>,
  string
> = {
  submitterAcme: 'c:roles:submitter',
  submitterGlobex: 'c:roles:submitter',
  externalWithRef: 'c:roles:external',
  externalOtherRef: 'c:roles:external',
  handlerAcme: 'c:roles:handler',
  handlerGlobex: 'c:roles:handler',
  managerAcme: 'c:roles:manager',
  managerGlobex: 'c:roles:manager',
  adminAcme: 'c:roles:admin',
  adminGlobex: 'c:roles:admin',
  newcomer: '',
};

/** Callers with no right to anything of /org/acme/: whatever they are answered names no acme object. */
export const OUTSIDERS: readonly Caller[] = [
  'anonymous',
  'submitterGlobex',
  'externalOtherRef',
  'handlerGlobex',
  'managerGlobex',
  'adminGlobex',
  'newcomer',
  'apiGlobex',
  // Of acme, but its one API scope reaches only the shared payee directory.
  'apiAcmePayeesOnly',
];

/** What an acme caller is never shown, whatever it may call: invoices, results awaiting quality
 * assurance, mail and configuration are staff business, a draft and an unattached upload are their author's alone. */
export const NEVER_SHOWN: Partial<Record<Caller, Secret[]>> = {
  submitterAcme: ['invoice', 'pendingResult', 'mail', 'configuration'],
  externalWithRef: ['invoice', 'pendingResult', 'mail', 'configuration', 'draft', 'file'],
  handlerAcme: ['draft', 'file'],
  managerAcme: ['draft', 'file'],
  adminAcme: ['draft', 'file'],
  apiAcme: ['draft', 'file', 'configuration'],
};

const SESSION_CALLERS = Object.keys(CALLER_ROLES) as Caller[];
const ACME = new Set<Caller>([
  'submitterAcme',
  'externalWithRef',
  'externalOtherRef',
  'handlerAcme',
  'managerAcme',
  'adminAcme',
]);

export const EVERYONE: readonly Caller[] = CALLERS;
export const SIGNED_IN: readonly Caller[] = SESSION_CALLERS;

/** Session callers whose role grants the permission somewhere (their own organisation). */
export function holders(permission: Permission): Caller[] {
  return SESSION_CALLERS.filter((c) =>
    permissionsOfRole(CALLER_ROLES[c as keyof typeof CALLER_ROLES]).includes(permission),
  );
}
/** Of the holders, those whose role is at /org/acme/ (the external callers only with the reference). */
export function acmeHolders(permission: Permission): Caller[] {
  return holders(permission).filter((c) => ACME.has(c) && c !== 'externalOtherRef');
}
const either = (...lists: Caller[][]) => [...new Set(lists.flat())];

/** Who sees the acme request: its submitter organisation, its staff and the external with its reference. */
const REQUEST_VIEWERS = acmeHolders('request:view');
/** Staff of the acme request (results awaiting QA, invoices). */
const REQUEST_STAFF: Caller[] = ['handlerAcme', 'managerAcme', 'adminAcme'];
const REQUEST_HANDLERS = acmeHolders('request:handle');
const API_KEYS: Caller[] = ['apiAcme', 'apiGlobex'];

/** Ids of the acme objects, made by the test; a route's `:name` parameters are filled from `params`. */
export interface Fixtures {
  requestNumber: string;
  resultId: string;
  /** A result awaiting quality assurance: staff only. */
  pendingResultId: string;
  pendingResultFileKey: string;
  invoiceId: string;
  invoiceFileKey: string;
  noteId: string;
  /** A senderActionRequired task (the sender side answers it) and a followUp task (staff only). */
  taskId: string;
  staffTaskId: string;
  /** A user of /org/acme/ who also holds a role at /org/globex/. */
  dualUserId: string;
  dualUserVersion: number;
  draftId: string;
  fileKey: string;
  resultFileKey: string;
  apiFileKey: string;
  inboxMessageId: string;
  userId: string;
  claimId: string;
  recipientId: string;
  payeeId: string;
  configurationId: string;
  configurationEntryId: string;
  webhookEntryId: string;
  /** A scimClientEntry of acme's configuration. */
  scimEntryId: string;
  mailId: string;
}

/** The identifying strings of the acme objects: a refused answer, or an outsider's, holds none. */
export const SECRETS = {
  requestNumber: createRequestNumber('MTX', new Date()),
  applicant: 'Quintessa Matrixapplicant',
  note: 'Matrix note confidential 4711',
  task: 'Matrix task notice 8812',
  result: 'matrix-result-7731.pdf',
  pendingResult: 'matrix-pending-2291.pdf',
  invoice: 'matrix-invoice-5521.pdf',
  file: 'matrix-upload-9182.pdf',
  draft: 'Draftina Matrixdraft',
  inbox: 'Matrix inbox subject 3319',
  userName: 'Ulrich Matrixuser',
  userEmail: 'ulrich.matrix@acme.example',
  recipient: 'Matrix Recipient Clinic 4410',
  payee: 'Matrix Payee Pty 5520',
  configuration: 'Matrix Acme Settings 6630',
  configurationName: 'Matrix Acme Configuration 6631',
  mail: 'Matrix mail subject 7740',
} as const;
export type Secret = keyof typeof SECRETS;

export interface Expectation {
  /** A name for a variant of a route (an action, a tile); shown in failures. */
  variant?: string;
  /** Callers that pass authorization; every other caller is refused. */
  allow: readonly Caller[];
  /** Path parameters beyond the defaults (see defaultParams in matrix.test.ts). */
  params?: (f: Fixtures) => Record<string, string>;
  query?: string;
  /** The body of a write (default {}). */
  body?: (f: Fixtures) => unknown;
  /** Statuses besides 2xx/3xx that mean "allowed past authorization" for an allowed caller. */
  pastAuth?: number[];
  /** Statuses that count as a refusal for everyone (default 401 anonymous, 403/404 others). */
  refusedAs?: number[];
  /** Runs after the reads (1) or last of all (2): for actions that change the objects. */
  order?: 1 | 2;
  /** Acme objects every allowed acme caller is shown here: the control that the leak check of the
   * outsiders on the same route can fail at all. */
  shows?: Secret[];
  /** Acme objects an allowed outsider may see here, and why. */
  mayShow?: { secrets: Secret[]; why: string };
  /** The route validates its body (or query) before it fully checks the caller: an empty body (or
   * query) gets some refused callers a 400. Reported, not failed (it shows no data); the refusal
   * itself is checked with `body` and `query`. Without this note such a 400 fails. */
  validatesFirst?: string;
  /** Cells whose expectation is right but the app is wrong, and known: skipped, printed. */
  knownDefects?: Partial<Record<Caller, string>>;
}

/** Routes not in the matrix, with why. */
export const EXCLUDED: Record<string, string> = {
  'GET /__ws': 'a websocket upgrade (covered by the live tests)',
  'GET /assets/*': 'static files from disk, public by design',
  'POST /signout': 'ends the caller session; takes no input and reaches no object',
  'PUT /files/upload/:key':
    'authorized by the signature of its upload URL, not by the caller (files.test.ts covers bad signatures)',
};

const SHARED_DIRECTORY = {
  secrets: ['recipient', 'payee'] as Secret[],
  why: 'the recipient and payee directory is shared by every organisation by design',
};
const acme = encodeURIComponent('/org/acme/');

/** The variants of a route with an :action parameter, one per action (its variant name). */
const actions = (list: (Expectation & { variant: string })[]): Expectation[] =>
  list.map((e) => ({ ...e, params: (f) => ({ ...(e.params?.(f) ?? {}), action: e.variant }) }));

export const MATRIX: Record<string, Expectation | Expectation[]> = {
  // ---- Operations and public pages
  'GET /readyz': { allow: EVERYONE },
  'GET /healthz': { allow: EVERYONE },
  'GET /sso/callback': { allow: [], refusedAs: [400, 401, 403, 404] },
  // The page after a re-authentication at the identity provider: the caller's own account.
  'GET /sso/reauthenticated': { allow: SIGNED_IN },
  'GET /sso/applications/:index': { allow: [], params: () => ({ index: '0' }), refusedAs: [401, 403, 404] },
  // The identity provider's back-channel logout: public, authorised only by the provider's signed
  // logout token, which no caller here holds (400; 404 where single sign-on is off). Forged, foreign
  // and ID tokens are covered in sso.test.ts.
  'POST /sso/backchannel-logout': { allow: [], refusedAs: [400, 404] },
  'GET /signin': { allow: EVERYONE },
  'POST /signin': { allow: EVERYONE, pastAuth: [400] },
  'GET /': { allow: SIGNED_IN },
  'GET /contact': { allow: EVERYONE },
  'GET /help': { allow: EVERYONE },
  'GET /forgot-password': { allow: EVERYONE },
  'POST /reset-password': { allow: EVERYONE, pastAuth: [400] },
  'GET /set-password': { allow: EVERYONE, pastAuth: [400] },
  'POST /set-password': { allow: EVERYONE, pastAuth: [400] },

  // ---- Configuration (configuration:view / :edit within the configuration's scope)
  'GET /admin/configuration': { allow: holders('configuration:view'), shows: ['configurationName'] },
  'GET /admin/configuration/new': {
    allow: acmeHolders('configuration:view'),
    query: `scopePath=${acme}`,
    pastAuth: [400],
    validatesFirst: 'an empty scopePath names no configuration to check the caller against',
  },
  'GET /admin/configuration/edit/:c/:id': {
    shows: ['configuration'],
    allow: acmeHolders('configuration:view'),
  },
  'GET /admin/configuration/edit/:c/:id/new': {
    allow: acmeHolders('configuration:view'),
    pastAuth: [400],
  },
  'POST /admin/configuration/edit/:c/:id': {
    allow: acmeHolders('configuration:edit'),
    order: 1,
    body: () => ({
      name: SECRETS.configuration,
      order: 0,
      data: { requestNumberPrefix: 'MTX' },
      version: 999,
    }),
    pastAuth: [400, 409],
    validatesFirst:
      'configuration:view is checked before the body, the scope of the configuration only after name, order and version',
  },
  'POST /admin/configuration/edit/:c/:id/revert': {
    allow: acmeHolders('configuration:edit'),
    order: 1,
    pastAuth: [400, 409],
  },
  // Order 2: it deletes. The probe entry does not exist, so an allowed caller gets past the check
  // to a 404 and nothing of acme is removed.
  'POST /admin/configuration/edit/:c/:id/delete': {
    allow: acmeHolders('configuration:edit'),
    order: 2,
    params: (f) => ({ c: f.configurationId, id: 'probeNoSuchEntry' }),
    pastAuth: [404],
  },
  'GET /files/SMARTFORM': {
    allow: acmeHolders('configuration:view'),
    query: 'formId=probe&configurationId=cfgorgacme',
    validatesFirst: 'configuration:view is checked first; the configuration is named by the query',
    pastAuth: [400, 404],
  },
  // The form being edited, posted (it may be far longer than an address): reads, changes nothing.
  'POST /files/SMARTFORM': {
    allow: acmeHolders('configuration:view'),
    body: () => ({ formId: 'probe', configurationId: 'cfgorgacme' }),
    validatesFirst: 'configuration:view is checked first; the configuration is named by the body',
    pastAuth: [400, 404],
  },
  'GET /files.pdf.fields/:key': {
    allow: acmeHolders('configuration:view'),
    params: (f) => ({ key: f.resultFileKey }),
    pastAuth: [400, 404],
  },
  'GET /admin/configuration/edit/:configuration/:id/deliveries': {
    allow: acmeHolders('configuration:view'),
    params: (f) => ({ configuration: f.configurationId, id: f.webhookEntryId }),
  },

  // ---- The caller's own things
  'GET /notifications': { allow: SIGNED_IN },
  'GET /notifications/active': { allow: SIGNED_IN },
  'POST /notifications/acknowledge': { allow: SIGNED_IN, order: 1, pastAuth: [400] },
  'GET /tasks/assigned': { allow: SIGNED_IN },
  'GET /account': { allow: SIGNED_IN },
  'POST /account': { allow: SIGNED_IN, order: 1, pastAuth: [400] },
  'GET /account/create': { allow: EVERYONE },
  // Every attempt counts towards 10 an hour per client, so most callers here meet the limit.
  'POST /account/create': { allow: EVERYONE, order: 1, pastAuth: [400, 429] },
  'GET /account/confirm': { allow: EVERYONE, pastAuth: [400] },
  // Changing an expired password before signing in: the page and its form are public.
  'GET /account/change-password': { allow: EVERYONE },
  'POST /account/change-password': { allow: EVERYONE, order: 1, pastAuth: [400] },

  // ---- Tasks: a handler of the task's request, or its sender side for the sender's own task
  'POST /tasks/:taskId/complete': [
    {
      variant: 'sender task',
      allow: either(REQUEST_HANDLERS, ['submitterAcme', 'externalWithRef']),
      order: 2,
      pastAuth: [409],
    },
    {
      variant: 'staff task',
      allow: REQUEST_HANDLERS,
      params: (f) => ({ taskId: f.staffTaskId }),
      order: 2,
      pastAuth: [409],
    },
  ],
  'POST /tasks/:taskId/mark-in-progress': { allow: REQUEST_HANDLERS, order: 1, pastAuth: [409] },
  // Handing tasks over: the request's handlers, and managers with task:skills at its scope, assign;
  // a claim is further refused (403, with the reason) to a handler without the task's skill.
  'GET /tasks/:taskId/assignees': {
    allow: either(REQUEST_HANDLERS, acmeHolders('task:skills')),
    params: (f) => ({ taskId: f.staffTaskId }),
  },
  'POST /tasks/:taskId/claim': {
    allow: REQUEST_HANDLERS,
    params: (f) => ({ taskId: f.staffTaskId }),
    order: 1,
    pastAuth: [403, 409],
  },
  'POST /tasks/:taskId/assign': {
    allow: either(REQUEST_HANDLERS, acmeHolders('task:skills')),
    params: (f) => ({ taskId: f.staffTaskId }),
    order: 1,
    pastAuth: [400, 409],
  },
  'POST /tasks/:taskId/release': {
    allow: REQUEST_HANDLERS,
    params: (f) => ({ taskId: f.staffTaskId }),
    order: 1,
    pastAuth: [403, 409],
  },

  // ---- Users (user:view / user:edit within the user's scope)
  'GET /admin/users': { allow: holders('user:view') },
  'GET /admin/users/search': { shows: ['userName'], allow: holders('user:view') },
  'GET /admin/users/edit': { allow: holders('user:edit') },
  'GET /admin/users/edit/:userId': { shows: ['userName'], allow: acmeHolders('user:view') },
  'POST /admin/users/edit': { allow: holders('user:edit'), order: 1, pastAuth: [400] },
  // The acme user is not linked to single sign-on: an allowed caller is told so (409).
  'POST /admin/users/edit/:userId/unlink-sso': { allow: acmeHolders('user:edit'), order: 1, pastAuth: [409] },
  'POST /admin/users/edit/:userId/role-claims/:claimId/:decision': {
    allow: acmeHolders('user:edit'),
    params: () => ({ userId: 'mx-claimant', decision: 'refuse' }),
    order: 2,
    pastAuth: [409],
  },
  'POST /admin/users/edit/:userId/clear-lockout': { allow: acmeHolders('user:edit'), order: 1 },
  'POST /admin/users/edit/:userId': [
    { variant: 'acme user', allow: acmeHolders('user:edit'), order: 1, pastAuth: [400] },
    // Neither administrator covers every role of a user with roles in both organisations.
    {
      variant: 'user with a globex role',
      allow: [],
      params: (f) => ({ userId: f.dualUserId }),
      order: 1,
      body: (f) => ({
        name: 'Dual Matrixuser',
        phone: '02 9000 0000',
        email: 'dual@acme.example',
        scope: '/org/acme/',
        roles: ['c:roles:submitter@/org/acme/', 'c:roles:handler@/org/globex/'],
        version: f.dualUserVersion,
      }),
    },
  ],

  // ---- Recipient and payee directory
  'GET /admin/recipients': { allow: holders('recipient:view') },
  'GET /admin/recipients/search': {
    shows: ['recipient'],
    allow: holders('recipient:view'),
    mayShow: SHARED_DIRECTORY,
  },
  'GET /admin/recipients/edit': { allow: holders('recipient:edit') },
  'GET /admin/recipients/edit/:recipientId': { allow: holders('recipient:view'), mayShow: SHARED_DIRECTORY },
  'POST /admin/recipients/edit': { allow: holders('recipient:edit'), order: 1, pastAuth: [400] },
  'POST /admin/recipients/edit/:recipientId': {
    allow: acmeHolders('recipient:edit'),
    order: 1,
    pastAuth: [400],
  },
  'GET /admin/payees': { allow: holders('payee:view') },
  'GET /admin/payees/search': { shows: ['payee'], allow: holders('payee:view'), mayShow: SHARED_DIRECTORY },
  'GET /admin/payees/edit': { allow: holders('payee:edit') },
  'GET /admin/payees/edit/:payeeId': { allow: holders('payee:view'), mayShow: SHARED_DIRECTORY },
  'POST /admin/payees/edit': { allow: holders('payee:edit'), order: 1, pastAuth: [400] },
  'POST /admin/payees/edit/:payeeId': {
    allow: acmeHolders('payee:edit'),
    order: 1,
    pastAuth: [400],
  },
  'GET /payees/search': {
    allow: either(holders('request:handle'), holders('payee:view')),
    mayShow: SHARED_DIRECTORY,
  },
  'GET /recipients/search': {
    allow: either(holders('request:submit'), holders('recipient:view')),
    mayShow: SHARED_DIRECTORY,
  },

  // ---- Outbox (mail:view / mail:edit within the mail's scope)
  'GET /admin/outbox': { allow: holders('mail:view') },
  'GET /admin/outbox/search': { shows: ['mail'], allow: holders('mail:view') },
  'GET /admin/outbox/:mailId': { shows: ['mail'], allow: acmeHolders('mail:view') },
  'GET /admin/outbox/:mailId/attachments/:index': {
    allow: acmeHolders('mail:view'),
    params: () => ({ index: '0' }),
  },
  'POST /admin/outbox/:mailId/actions/:action': {
    allow: acmeHolders('mail:edit'),
    params: () => ({ action: 'resend' }),
    order: 1,
    pastAuth: [409],
  },

  // ---- Files
  'POST /files': {
    allow: SIGNED_IN,
    order: 1,
    body: () => ({
      name: 'probe.pdf',
      contentType: 'application/pdf',
      contentLength: 10,
      publicReadAccess: false,
    }),
  },
  'GET /files/:key': [
    { variant: 'result file', allow: REQUEST_VIEWERS, params: (f) => ({ key: f.resultFileKey }) },
    { variant: 'own upload', allow: ['submitterAcme'], params: (f) => ({ key: f.fileKey }) },
    { variant: 'invoice file', allow: REQUEST_STAFF, params: (f) => ({ key: f.invoiceFileKey }) },
    { variant: 'result awaiting QA', allow: REQUEST_STAFF, params: (f) => ({ key: f.pendingResultFileKey }) },
  ],

  // ---- The request and its items
  'GET /requests/find': { allow: holders('request:view') },
  'GET /requests/search': { shows: ['applicant'], allow: holders('request:view') },
  'GET /requests/:requestNumber': { shows: ['applicant'], allow: REQUEST_VIEWERS },
  'GET /requests/:requestNumber/preview': { shows: ['applicant'], allow: REQUEST_VIEWERS },
  'GET /requests/:requestNumber/mention-suggestions': { allow: REQUEST_VIEWERS, query: 'prefix=Use' },
  'GET /requests/:requestNumber/history': { allow: REQUEST_VIEWERS },
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
    { variant: 'noSuchAction', allow: [], refusedAs: [401, 404] },
  ]),
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
  // SCIM client's bearer token, which no caller here holds: sessions and API keys get SCIM's 401.
  // One client's token against another scope's users is covered in scim.test.ts.
  'GET /scim/v2/ServiceProviderConfig': { allow: EVERYONE },
  'GET /scim/v2/ResourceTypes': { allow: EVERYONE },
  'GET /scim/v2/ResourceTypes/:id': { allow: EVERYONE, params: () => ({ id: 'User' }) },
  'GET /scim/v2/Schemas': { allow: EVERYONE },
  'GET /scim/v2/Schemas/:id': {
    allow: EVERYONE,
    params: () => ({ id: 'urn:ietf:params:scim:schemas:core:2.0:User' }),
  },
  ...Object.fromEntries(
    [
      'GET /scim/v2/Users',
      'POST /scim/v2/Users',
      'GET /scim/v2/Users/:id',
      'PUT /scim/v2/Users/:id',
      'PATCH /scim/v2/Users/:id',
      'DELETE /scim/v2/Users/:id',
      'GET /scim/v2/Groups',
      'POST /scim/v2/Groups',
      'GET /scim/v2/Groups/:id',
      'PUT /scim/v2/Groups/:id',
      'PATCH /scim/v2/Groups/:id',
      'DELETE /scim/v2/Groups/:id',
    ].map((route) => [route, { allow: [], params: (f: Fixtures) => ({ id: f.userId }), refusedAs: [401] }]),
  ),
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
