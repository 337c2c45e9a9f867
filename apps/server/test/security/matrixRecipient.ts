import { createRecipientAccess } from '../../src/features/recipientAccess/index.js';
import type { TestContext } from '../helpers.js';
import { XHR } from '../helpers.js';
import { insertTestRequest } from '../support/requests.js';
import { actions, EVERYONE, type Expectation, REQUEST_HANDLERS } from './matrixCallers.js';

// The recipient's page in the authorization matrix (issue 34): acme's request and a globex request
// each get a link, and each recipient caller enters its own link's passcode. Its session opens only
// its own link's routes; everywhere else it is anonymous, and globex's recipient never reaches
// acme's link.

/** A new link of the request, and the session of its right passcode. */
export async function recipientSession(t: TestContext, requestNumber: string, scope: string) {
  const access = await t.db.transaction().execute((trx) =>
    createRecipientAccess(trx, t.config, {
      request: { request_number: requestNumber, scope },
      method: 'email',
      sentTo: 'records@northside.example',
      createdBy: null,
      at: new Date(),
    }),
  );
  if (!access) throw new Error('the recipient page is off in the matrix configuration');
  const token = access.url.split('/r/')[1] ?? '';
  const res = await t.app.inject({
    method: 'POST',
    url: `/r/${token}/passcode`,
    headers: XHR,
    // An address of its own: the wrong tries of fuzzing from the usual one do not stop it.
    remoteAddress: `10.34.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
    payload: { passcode: access.passcode },
  });
  const cookie = res.cookies.find((c) => c.name === 'dossier_recipient');
  if (res.statusCode !== 200 || !cookie) throw new Error(`recipient passcode: ${res.statusCode} ${res.body}`);
  return { token, accessId: access.accessId, cookie: `dossier_recipient=${cookie.value}` };
}

export async function addRecipientCallers(t: TestContext, acmeRequestNumber: string) {
  const globexRequest = await insertTestRequest(t.db, { scope: '/org/globex/', prefix: 'GLX' });
  const acme = await recipientSession(t, acmeRequestNumber, '/org/acme/');
  const globex = await recipientSession(t, globexRequest, '/org/globex/');
  return { acme, globex };
}

const recipientOnly = ['recipientAcme'] as const;

export const RECIPIENT_ROWS: Record<string, Expectation | Expectation[]> = {
  // The link alone shows the passcode form to anyone, and nothing of the request.
  'GET /r/:token': { allow: EVERYONE },
  // Without its passcode nobody gets past it: a missing passcode and a wrong one both answer 400.
  'POST /r/:token/passcode': { allow: [], refusedAs: [400] },
  'POST /r/:token/answers': {
    allow: [...recipientOnly],
    order: 1,
    body: () => ({ kind: 'message', message: 'A message of the matrix.' }),
    refusedAs: [403],
  },
  'POST /r/:token/files': {
    allow: [...recipientOnly],
    order: 1,
    query: 'name=probe.pdf',
    // A JSON body is not a document: the recipient's upload is refused as such, past the link.
    pastAuth: [400],
    refusedAs: [403],
  },
  'GET /r/:token/files/:key': {
    allow: [...recipientOnly],
    // The default key is a result file, not the letter or authority of the link: not found to it.
    pastAuth: [404],
    refusedAs: [403],
  },
};

/** The request page's Revoke and Re-send of the recipient's link: handlers of the request only. */
export const RECIPIENT_ACTIONS = actions([
  {
    variant: 'revokeRecipientAccess',
    allow: REQUEST_HANDLERS,
    order: 2,
    body: (f) => ({ accessId: f.recipientAccessId }),
    pastAuth: [409],
  },
  { variant: 'resendRecipientAccess', allow: REQUEST_HANDLERS, order: 2, pastAuth: [409] },
]);
