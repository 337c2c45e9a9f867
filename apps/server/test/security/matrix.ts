import {
  acme,
  acmeHolders,
  EVERYONE,
  type Expectation,
  either,
  holders,
  REQUEST_HANDLERS,
  REQUEST_STAFF,
  REQUEST_VIEWERS,
  SECRETS,
  SHARED_DIRECTORY,
  SIGNED_IN,
} from './matrixCallers.js';
import { RECIPIENT_ROWS } from './matrixRecipient.js';
import { REQUEST_ROWS } from './matrixRequestRows.js';

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
export * from './matrixCallers.js';

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
  // The own second factors: every signed-in caller, on its own account only (a factor id of another
  // account is 404: the lookups are by the caller's id and the factor's).
  'GET /account/second-factors': { allow: SIGNED_IN },
  'POST /account/second-factors': { allow: SIGNED_IN, order: 1, pastAuth: [400] },
  'POST /account/second-factors/:factorId/confirm': {
    allow: SIGNED_IN,
    params: () => ({ factorId: 'no-such-factor' }),
    order: 1,
    pastAuth: [400, 404],
  },
  'POST /account/second-factors/:factorId/remove': {
    allow: SIGNED_IN,
    params: () => ({ factorId: 'no-such-factor' }),
    order: 1,
    pastAuth: [400, 404],
  },
  'POST /account/recovery-codes': { allow: SIGNED_IN, order: 1, pastAuth: [400] },
  // The second step of a sign-in: public, authorised only by the challenge cookie of a right
  // password, which no caller here holds (401 "expired"; 400 for a missing code).
  'POST /signin/second-factor': { allow: [], refusedAs: [400, 401] },
  // Passkeys of the own account: the options name the caller's own passkeys only.
  'POST /account/passkeys/options': { allow: SIGNED_IN, order: 1 },
  'POST /account/passkeys': { allow: SIGNED_IN, order: 1, pastAuth: [400] },
  // A passkey sign-in: after the password (the challenge cookie, which no caller here holds) or
  // alone where PASSKEY_SIGNIN allows it (off here: 404); its answer is checked against a
  // challenge this server gave (passkeys.test.ts).
  'POST /signin/passkey/options': { allow: [], refusedAs: [401, 404] },
  'POST /signin/passkey': { allow: [], refusedAs: [400, 401, 404] },

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
  // Resetting the acme user's second factors (it has none: the reset still passes and is recorded).
  'POST /admin/users/edit/:userId/second-factors/reset': { allow: acmeHolders('user:edit'), order: 1 },
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

  // ---- Retention and erasure on request (retention:manage within the administrator's scopes)
  'GET /admin/retention': { allow: holders('retention:manage') },
  'POST /admin/retention/run': { allow: holders('retention:manage'), order: 1 },
  'GET /admin/retention/erasure': { allow: holders('retention:manage') },
  'POST /admin/retention/erasure': { allow: holders('retention:manage'), order: 1, pastAuth: [400] },

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
  ...REQUEST_ROWS,
  ...RECIPIENT_ROWS,
};
