import { API_SCOPES } from '@dossier/core';
import { expect } from 'vitest';
import { invalidateConfigurationCache } from '../../src/features/configuration/effective.js';
import { createLocalStorage } from '../../src/files/storage.js';
import { receiveMessage } from '../../src/mail/incoming/receive.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from '../helpers.js';
import { addApiKey, apiToken, type TestApiKey } from '../support/apiKeys.js';
import { insertTestRequest } from '../support/requests.js';
import { setRequestSettings, uploadPdf } from '../support/resultsInvoices.js';
import { CALLER_ROLES, type Caller, type Fixtures, SECRETS } from './matrix.js';
import { addRecipientCallers } from './matrixRecipient.js';

// The world the authorization matrix runs in (matrix.test.ts): its callers signed in or holding
// API keys, and real objects of /org/acme/ made through the routes by an administrator at /.

let t: TestContext;
let f: Fixtures;
/** An administrator at / who makes the acme objects through the routes; not a caller of the matrix. */
let rootCookie = '';
const cookies = new Map<Caller, string>();
const REVOKED: Caller = 'revokedHandlerAcme';
const keys = new Map<Caller, TestApiKey>();
/** The SCIM client's bearer token (scimAcme), taken by adminAcme in the configuration editor. */
let scimToken = '';
/** Whether the caller calls with an API key (not a session). */
export const holdsApiKey = (caller: Caller) => keys.has(caller);

const doc = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

function mail(subject: string, body: string): Buffer {
  return Buffer.from(
    `MIME-Version: 1.0\r\nFrom: Records <records@northside.example>\r\nSubject: ${subject}\r\nContent-Type: text/plain\r\n\r\n${body}\r\n`,
  );
}

export async function call(
  caller: Caller | 'root',
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  // Every caller is a JSON client (X-Requested-With): a refusal is an error, not a sign-in redirect.
  const headers: Record<string, string> = { ...XHR };
  const key = caller === 'root' ? undefined : keys.get(caller);
  if (key) headers.authorization = `Bearer ${await apiToken(key)}`;
  else if (caller === 'scimAcme') headers.authorization = `Bearer ${scimToken}`;
  else {
    const cookie = caller === 'root' ? rootCookie : cookies.get(caller);
    if (cookie) headers.cookie = cookie;
  }
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: res.statusCode, body: res.body };
}

async function rootCall(method: string, url: string, body?: unknown) {
  const res = await call('root', method, url, body);
  if (res.status >= 300) throw new Error(`fixture ${method} ${url}: ${res.status} ${res.body}`);
  return JSON.parse(res.body || '{}');
}

/** Makes the callers and the objects of /org/acme/ they are called with (through the routes). */
export async function setUpMatrix(): Promise<{ t: TestContext; f: Fixtures }> {
  t = await createTestContext({ selfRegistration: true });
  const { db } = t;
  await createUser(db, { id: 'mx-root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  rootCookie = await signIn(t.app, 'mx-root');

  // The callers.
  for (const [caller, role] of Object.entries(CALLER_ROLES)) {
    const org = caller.endsWith('Globex')
      ? '/org/globex/'
      : caller === 'newcomer'
        ? '/registered/'
        : '/org/acme/';
    const reference =
      caller === 'externalWithRef' ? 'ADV-ACME-1' : caller === 'externalOtherRef' ? 'ADV-OTHER-2' : undefined;
    // The revoked handler starts as a handler of acme; its role is taken once the objects exist.
    const held = caller === REVOKED ? 'c:roles:handler' : role;
    await createUser(db, {
      id: `mx-${caller.toLowerCase()}`,
      scope: org,
      roles: held
        ? [{ role: held, scope: org, ...(reference === undefined ? {} : { externalReference: reference }) }]
        : [],
    });
    cookies.set(caller as Caller, await signIn(t.app, `mx-${caller.toLowerCase()}`));
  }

  // Configuration of /org/acme/: request settings (named), a webhook entry, the acme API key.
  await setRequestSettings(t, '/org/acme/', { requestNumberPrefix: 'MTX' });
  const configurationId = 'cfgorgacme';
  await db
    .updateTable('configurations')
    .set({ name: SECRETS.configurationName })
    .where('id', '=', configurationId)
    .execute();
  await db
    .insertInto('configuration_entries')
    .values({
      configuration_id: configurationId,
      id: 'scopeAcme',
      parent_id: 'c',
      type: 'scopeEntry',
      name: 'Acme',
      data: JSON.stringify({ scopePath: '/org/acme/', usages: ['submitRequest'] }),
    })
    .execute();
  // A SCIM client of acme, whose token the configuration editors of acme may make.
  await db
    .insertInto('configuration_entries')
    .values({
      configuration_id: configurationId,
      id: 'mxScim',
      parent_id: 'c',
      type: 'scimClientEntry',
      name: 'Matrix SCIM client',
      data: JSON.stringify({ subjectAttribute: 'externalId', groupRoles: [] }),
    })
    .execute();
  invalidateConfigurationCache(db);
  await db
    .updateTable('configuration_entries')
    .set({ name: SECRETS.configuration })
    .where('configuration_id', '=', configurationId)
    .where('id', '=', 'requestSettings')
    .execute();
  const scopes = [...API_SCOPES];
  keys.set('apiAcme', await addApiKey(db, { kid: 'mx-acme', scopePath: '/org/acme/', apiScopes: scopes }));
  keys.set(
    'apiGlobex',
    await addApiKey(db, { kid: 'mx-globex', scopePath: '/org/globex/', apiScopes: scopes }),
  );
  keys.set(
    'apiAcmePayeesOnly',
    await addApiKey(db, { kid: 'mx-acme-payees', scopePath: '/org/acme/', apiScopes: ['payeeRead'] }),
  );

  // The acme request, with a quality-assured result, an invoice, a note, a task.
  const requestNumber = await insertTestRequest(db, {
    scope: '/org/acme/',
    requestNumber: SECRETS.requestNumber,
    status: 'open',
    applicant: { name: SECRETS.applicant },
    externalUserReferences: ['ADV-ACME-1'],
    submittedBy: 'mx-submitteracme',
  });
  const n = `/requests/${requestNumber}`;
  const resultFileKey = await uploadPdf(t, rootCookie, SECRETS.result);
  const { resultId } = await rootCall('POST', `${n}/actions/addResult`, {
    file: { key: resultFileKey },
    tags: { documentType: 'Medical records' },
  });
  await rootCall('POST', `${n}/results/${resultId}/actions/qualityAssure`, {});
  const pendingResultFileKey = await uploadPdf(t, rootCookie, SECRETS.pendingResult);
  const pending = await rootCall('POST', `${n}/actions/addResult`, {
    file: { key: pendingResultFileKey },
    tags: { documentType: 'Medical records' },
  });
  const invoiceKey = await uploadPdf(t, rootCookie, SECRETS.invoice);
  const { invoiceId } = await rootCall('POST', `${n}/actions/addInvoice`, {
    file: { key: invoiceKey },
    tags: { invoiceType: 'Records fee' },
  });
  const note = await call('submitterAcme', 'POST', `${n}/actions/addNote`, { body: doc(SECRETS.note) });
  expect(note.status, note.body).toBe(200);
  const noteId = JSON.parse(note.body).messageId as string;
  const { taskId } = await rootCall('POST', `${n}/actions/addTask`, {
    type: 'senderActionRequired',
    notice: SECRETS.task,
  });

  const staffTask = await rootCall('POST', `${n}/actions/addTask`, {
    type: 'followUp',
    notice: SECRETS.task,
  });

  // A draft and an unattached upload of the acme submitter.
  const draft = await db
    .insertInto('request_drafts')
    .values({ user_id: 'mx-submitteracme', data: JSON.stringify({ applicant: { name: SECRETS.draft } }) })
    .returning('id')
    .executeTakeFirstOrThrow();
  const fileKey = await uploadPdf(t, cookies.get('submitterAcme') ?? '', SECRETS.file);

  // An inbox message naming the acme request (which links it to the request).
  await receiveMessage(
    { db, storage: createLocalStorage(t.config.files.dir), live: t.live },
    mail(SECRETS.inbox, `About ${requestNumber}.`),
  );
  const message = await db
    .selectFrom('inbox_messages')
    .select('id')
    .where('subject', '=', SECRETS.inbox)
    .executeTakeFirstOrThrow();

  // A user of acme, and a claim of an external role at acme by a self-registered user.
  await createUser(db, {
    id: 'mx-acmeuser',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await db
    .updateTable('users')
    .set({ name: SECRETS.userName, email: SECRETS.userEmail })
    .where('id', '=', 'mx-acmeuser')
    .execute();
  await createUser(db, {
    id: 'mx-dualuser',
    scope: '/org/acme/',
    roles: [
      { role: 'c:roles:submitter', scope: '/org/acme/' },
      { role: 'c:roles:handler', scope: '/org/globex/' },
    ],
  });
  await db.updateTable('users').set({ name: SECRETS.dualUser }).where('id', '=', 'mx-dualuser').execute();
  // The SCIM client's token, taken by the administrator of acme; a group of the client holding the
  // acme user and the dual user (put there before the dual user's globex role, say).
  const token = await call(
    'adminAcme',
    'POST',
    `/admin/configuration/edit/${configurationId}/mxScim/scim-token`,
  );
  expect(token.status, token.body).toBe(200);
  scimToken = JSON.parse(token.body).token;
  const scimGroup = await db
    .insertInto('scim_groups')
    .values({
      client: `scim:${configurationId}/mxScim`,
      scope: '/org/acme/',
      display_name: 'Matrix SCIM group',
      external_id: null,
      created_at: new Date(),
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('scim_group_members')
    .values([
      { group_id: scimGroup.id, user_id: 'mx-acmeuser' },
      { group_id: scimGroup.id, user_id: 'mx-dualuser' },
    ])
    .execute();
  await createUser(db, { id: 'mx-claimant', scope: '/registered/' });
  const claim = await db
    .insertInto('role_claims')
    .values({
      user_id: 'mx-claimant',
      role: 'c:roles:external',
      scope: '/org/acme/',
      external_reference: 'ADV-CLAIM-3',
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  // Directory entries, and a mail of the acme request.
  await rootCall('POST', '/admin/recipients/edit', {
    name: SECRETS.recipient,
    phone: '02 9000 1111',
    country: 'AU',
    tags: { kind: { id: 'kind', name: 'Kind', values: ['hospital'], isRequired: true, value: 'hospital' } },
  });
  await rootCall('POST', '/admin/payees/edit', { name: SECRETS.payee, currency: 'AUD' });
  // Entries acme made: acme's editors change them, nobody else below the root.
  await db
    .updateTable('recipients')
    .set({ scope: '/org/acme/' })
    .where('name', '=', SECRETS.recipient)
    .execute();
  await db.updateTable('payees').set({ scope: '/org/acme/' }).where('name', '=', SECRETS.payee).execute();
  const recipient = await db
    .selectFrom('recipients')
    .select('id')
    .where('name', '=', SECRETS.recipient)
    .executeTakeFirstOrThrow();
  const payee = await db
    .selectFrom('payees')
    .select('id')
    .where('name', '=', SECRETS.payee)
    .executeTakeFirstOrThrow();
  const outbox = await db
    .insertInto('mail_outbox')
    .values({
      to: 'records@northside.example',
      subject: SECRETS.mail,
      text: `About ${requestNumber}`,
      html: null,
      created_at: new Date(),
      next_attempt_at: new Date(),
      last_error: null,
      message_id: null,
      request_number: requestNumber,
      scope: '/org/acme/',
      // What the message carries opens from the outbox (GET …/attachments/0).
      attachments: JSON.stringify([
        { fileKey: resultFileKey, name: 'records.pdf', contentType: 'application/pdf' },
      ]),
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  await revokeHandler(staffTask.taskId);
  const recipients = await addRecipientCallers(t, requestNumber);
  cookies.set('recipientAcme', recipients.acme.cookie);
  cookies.set('recipientGlobex', recipients.globex.cookie);

  f = {
    requestNumber,
    resultId,
    pendingResultId: pending.resultId,
    pendingResultFileKey,
    invoiceId,
    invoiceFileKey: invoiceKey,
    noteId,
    taskId,
    staffTaskId: staffTask.taskId,
    dualUserId: 'mx-dualuser',
    dualUserVersion: (
      await db.selectFrom('users').select('version').where('id', '=', 'mx-dualuser').executeTakeFirstOrThrow()
    ).version,
    draftId: draft.id,
    fileKey,
    resultFileKey,
    apiFileKey: resultFileKey,
    inboxMessageId: message.id,
    userId: 'mx-acmeuser',
    claimId: claim.id,
    recipientId: recipient.id,
    payeeId: payee.id,
    configurationId,
    configurationEntryId: 'requestSettings',
    webhookEntryId: 'requestSettings',
    scimEntryId: 'mxScim',
    scimGroupId: scimGroup.id,
    mailId: outbox.id,
    recipientToken: recipients.acme.token,
    recipientAccessId: recipients.acme.accessId,
  };
  return { t, f };
}

/**
 * The revoked handler of acme: it holds the staff task and its session has the actor cached (it
 * lists the task), then an administrator removes all its roles through the user screens. The
 * reassignment takes the task from it; the task is given back to it as before that job had run, so
 * the matrix shows the actions refused by the roles, not by whose name the task carries.
 */
async function revokeHandler(staffTaskId: string) {
  const userId = `mx-${REVOKED.toLowerCase()}`;
  await t.db.updateTable('tasks').set({ assigned_to: userId }).where('id', '=', staffTaskId).execute();
  const before = await call(REVOKED, 'GET', '/tasks/assigned');
  expect(before.body, 'the control: the handler lists its acme task').toContain(SECRETS.applicant);
  const { user } = await rootCall('GET', `/admin/users/edit/${userId}`);
  await rootCall('POST', `/admin/users/edit/${userId}`, { ...user, phone: '02 9876 5432', roles: [] });
  await t.db.updateTable('tasks').set({ assigned_to: userId }).where('id', '=', staffTaskId).execute();
}
