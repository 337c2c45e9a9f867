import { richTextFromParagraphs, TRAINABLE_TASK_TYPES } from '@dossier/core';
import { sql } from 'kysely';
import { afterAll, assert, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { WorkflowEngine } from '../src/features/workflow/engine.js';
import { caller, seedScopes } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { uploadPdf } from './support/resultsInvoices.js';
import { insertEvent, mailAbout, setRootEntry, tasksOf, train } from './support/workflow.js';

// The workflow mails, driven as in production: a route (or an event) commits, the workflow engine
// reacts, and the mail rendered from the configured template waits in mail_outbox, naming its
// request. Each mail goes out exactly as the notify flags of the task type settings and request
// settings (or the result recipients) say; without them nothing is queued.

let t: TestContext;
let engine: WorkflowEngine;
let handler: ReturnType<typeof caller>;
let handlerCookie: string;
const PUBLIC_URL = 'https://dossier.example';
const CLOSE = { notice: 'Done.', tags: { closeReason: 'Completed' } };
const REOPEN = { notice: 'Again.', tags: { reOpenReason: 'Sender query' } };
const RESULT_TAGS = { documentType: 'Medical records' };

// Entries a test changed, with their seeded data, put back before the next test.
const seeded = new Map<string, unknown>();
async function setEntry(id: string, data: Record<string, unknown>) {
  if (!seeded.has(id)) {
    const row = await t.db
      .selectFrom('configuration_entries as e')
      .innerJoin('configurations as c', 'c.id', 'e.configuration_id')
      .select('e.data')
      .where('c.scope_path', '=', '/')
      .where('e.id', '=', id)
      .executeTakeFirstOrThrow();
    seeded.set(id, row.data);
  }
  await setRootEntry(t.db, id, data);
}

beforeAll(async () => {
  t = await createTestContext({ publicUrl: PUBLIC_URL });
  await seedScopes(t.db);
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await train(t.db, 'handler', TRAINABLE_TASK_TYPES);
  await createUser(t.db, {
    id: 'submitter',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'advisor',
    roles: [{ role: 'c:roles:external', scope: '/org/acme/', externalReference: 'adv-1' }],
  });
  await createUser(t.db, {
    id: 'otheradvisor',
    roles: [{ role: 'c:roles:external', scope: '/org/acme/', externalReference: 'adv-2' }],
  });
  handlerCookie = await signIn(t.app, 'handler');
  handler = caller(t.app, handlerCookie);
  engine = new WorkflowEngine(t.db, { live: t.live, log: { warn: () => undefined }, config: t.config });
});
afterAll(async () => {
  await engine.stop();
  await t.close();
});
beforeEach(async () => {
  for (const [id, data] of seeded)
    await sql`update configuration_entries set data = ${JSON.stringify(data)}::jsonb
              where configuration_id = (select id from configurations where scope_path = '/') and id = ${id}`.execute(
      t.db,
    );
  seeded.clear();
  invalidateConfigurationCache(t.db);
});

const settle = () => engine.drain();
const newRequest = (status: 'open' | 'submitted' = 'open') =>
  insertTestRequest(t.db, {
    scope: '/org/acme/',
    status,
    submittedBy: 'submitter',
    externalUserReferences: ['adv-1'],
  });
const act = (n: string, action: string, body: unknown) =>
  handler.post(`/requests/${n}/actions/${action}`, body);

describe('request closed and re-opened', () => {
  it('sends nothing while the notify flags are off', async () => {
    const n = await newRequest();
    expect((await act(n, 'closeRequest', CLOSE)).statusCode).toBe(200);
    await settle();
    expect((await act(n, 'reOpenRequest', REOPEN)).statusCode).toBe(200);
    await settle();
    expect(await mailAbout(t.db, n)).toEqual([]);
  });

  it('mails the sender, the external users and the other addresses from the requestClosed template', async () => {
    await setEntry('requestSettings', {
      notifyRequestSenderWhenClosed: true,
      notifyExternalUsersWhenClosed: true,
      notifyOtherWhenClosed: ['audit@other.example', 'not an address'],
    });
    const n = await newRequest();
    await act(n, 'closeRequest', CLOSE);
    await settle();
    const mails = await mailAbout(t.db, n);
    // The advisor of another reference is not told.
    expect(mails.map((m) => m.to).sort()).toEqual([
      'advisor@test.example',
      'audit@other.example',
      'submitter@test.example',
    ]);
    expect(mails[0]?.subject).toBe(`Request ${n} closed`);
    expect(mails[0]?.text).toContain(`Request ${n} was closed on `);
    expect(mails[0]?.html).toContain(`<p>Request ${n} was closed on `);
    expect(mails[0]?.html).toContain(`<a href="${PUBLIC_URL}/requests/${n}">`);
    // Re-opening has flags of its own, still off.
    await act(n, 'reOpenRequest', REOPEN);
    await settle();
    expect(await mailAbout(t.db, n)).toHaveLength(3);
  });

  it('renders the configured requestReOpened template for the sender only as its flag says', async () => {
    await setEntry('requestSettings', { notifyRequestSenderWhenReOpened: true });
    await setEntry('templateRequestReOpened', {
      subject: '${request.applicant.name}: ${request.requestNumber} is open again',
      body: richTextFromParagraphs(
        'Hello, ${request.requestNumber} for ${request.applicant.name} was re-opened.',
      ),
    });
    const n = await newRequest();
    await act(n, 'closeRequest', CLOSE);
    await act(n, 'reOpenRequest', REOPEN);
    await settle();
    const [mail, ...rest] = await mailAbout(t.db, n);
    assert(mail);
    expect(rest).toEqual([]);
    expect(mail).toMatchObject({ to: 'submitter@test.example', subject: `Jane Citizen: ${n} is open again` });
    expect(mail.text).toContain(`Hello, ${n} for Jane Citizen was re-opened.`);
  });
});

describe('tasks', () => {
  async function addTask(n: string, type: string, notice = 'Please call them.') {
    const res = await act(n, 'addTask', { type, notice });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().taskId as string;
  }

  it('sends nothing for an added or completed task while its flags are off', async () => {
    const n = await newRequest();
    const taskId = await addTask(n, 'actionDeferred');
    await settle();
    expect((await handler.post(`/tasks/${taskId}/complete`, {})).statusCode).toBe(200);
    await settle();
    expect(await mailAbout(t.db, n)).toEqual([]);
  });

  it('mails per the task type flags from workflowTaskTriggered and workflowTaskCompleted', async () => {
    await setEntry('taskFollowUp', {
      notifyRequestSenderWhenTriggered: true,
      notifyOtherWhenTriggered: ['ops@other.example'],
      notifyExternalUsersWhenCompleted: true,
    });
    const n = await newRequest();
    const taskId = await addTask(n, 'followUp');
    await settle();
    const triggered = await mailAbout(t.db, n);
    expect(triggered.map((m) => m.to).sort()).toEqual(['ops@other.example', 'submitter@test.example']);
    expect(triggered[0]?.subject).toBe(`Follow Up for ${n}`);
    expect(triggered[0]?.text).toContain(
      `A task was created for request ${n}: Follow Up: Jane Citizen. Due `,
    );

    expect((await handler.post(`/tasks/${taskId}/complete`, {})).statusCode).toBe(200);
    await settle();
    const completed = (await mailAbout(t.db, n)).slice(2);
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({
      to: 'advisor@test.example',
      subject: `Follow Up completed for ${n}`,
    });
  });

  it('mails for tasks the workflow adds and completes itself', async () => {
    await setEntry('taskIssueRequest', {
      notifyOtherWhenTriggered: ['ops@other.example'],
      notifyOtherWhenCompleted: ['ops@other.example'],
    });
    const n = await newRequest('submitted');
    await insertEvent(t.db, { type: 'request.submitted', requestNumber: n });
    await settle();
    const [issue] = await tasksOf(t.db, n);
    expect(issue).toMatchObject({ type: 'issueRequest', assigned_to: 'handler' });
    expect((await mailAbout(t.db, n)).map((m) => [m.to, m.subject])).toEqual([
      ['ops@other.example', `Issue Request for ${n}`],
    ]);
    const issued = await act(n, 'issueRequest', {
      issueRequestMethod: 'postal',
      subject: 'Records request',
      body: richTextFromParagraphs('Please send.'),
    });
    expect(issued.statusCode, issued.body).toBe(200);
    await settle();
    const mails = await mailAbout(t.db, n);
    expect(mails.map((m) => m.subject)).toContain(`Issue Request completed for ${n}`);
    // Named by the assignee in the history: the workflow's own events have no actor.
    const history = (await handler.get(`/requests/${n}`)).json().history as { summary: string }[];
    expect(history.map((h) => h.summary)).toContain('Completed the task Issue Request.');
    expect(history.some((h) => h.summary.startsWith('The workflow added the task Follow Up (due '))).toBe(
      true,
    );
  });

  it('always mails the sender when a senderActionRequired task is added, from its template', async () => {
    await setEntry('templateSenderActionRequired', {
      body: richTextFromParagraphs('Dear sender, ${task.notice} Answer here: ${task.url link}'),
    });
    const n = await newRequest();
    await addTask(n, 'senderActionRequired', 'Please sign the authority again.');
    await settle();
    const mails = await mailAbout(t.db, n);
    expect(mails.map((m) => m.to)).toEqual(['submitter@test.example']);
    expect(mails[0]?.subject).toBe(`Request ${n} needs your action`);
    expect(mails[0]?.text).toContain('Dear sender, Please sign the authority again. Answer here:');
    // Links use PUBLIC_URL.
    expect(mails[0]?.text).toContain(`${PUBLIC_URL}/requests/${n}`);
  });

  it('links the seeded "needs your action" mail to its request, as an anchor in HTML', async () => {
    const n = await newRequest();
    await addTask(n, 'senderActionRequired', 'Please sign the authority again.');
    await settle();
    const [mail] = await mailAbout(t.db, n);
    assert(mail);
    expect(mail.html).toContain(`<a href="${PUBLIC_URL}/requests/${n}">`);
    expect(mail.text).toContain(`(${PUBLIC_URL}/requests/${n})`);
  });
});

describe('results', () => {
  async function addResult(n: string) {
    const key = await uploadPdf(t, handlerCookie);
    const res = await act(n, 'addResult', { file: { key }, tags: RESULT_TAGS });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().resultId as string;
  }
  const resultAction = (n: string, id: string, action: string) =>
    handler.post(
      `/requests/${n}/results/${id}/actions/${action}`,
      action === 'discard' ? {} : { itemTypes: [] },
    );

  /** A result whose file is as large as given (no bytes stored: delivery only reads its size). */
  async function insertLargeResult(n: string, size: number) {
    const key = `large-${size}-${Math.random().toString(36).slice(2)}`;
    await t.db
      .insertInto('files')
      .values({
        key,
        name: 'records.pdf',
        content_type: 'application/pdf',
        declared_size: size,
        size,
        owner_type: 'request',
        owner_id: n,
        uploaded_at: new Date(),
      })
      .execute();
    const row = await t.db
      .insertInto('request_results')
      .values({ request_number: n, file_key: key, created_by: 'handler' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('delivers a quality-assured result to the sender, attached, with a link under PUBLIC_URL', async () => {
    const n = await newRequest();
    const resultId = await addResult(n);
    await settle();
    // Waiting for QA: not delivered yet.
    expect(await mailAbout(t.db, n)).toEqual([]);
    expect((await resultAction(n, resultId, 'qualityAssure')).statusCode).toBe(200);
    await settle();
    const [mail, ...rest] = await mailAbout(t.db, n);
    assert(mail);
    expect(rest).toEqual([]);
    expect(mail.to).toBe('submitter@test.example');
    expect(mail.text).toContain(`A result of request ${n} is ready: open the result (`);
    expect(mail.text).toContain(`${PUBLIC_URL}/requests/${n}/results/${resultId}`);
    // In HTML the link is an anchor, not its address in brackets after the words.
    expect(mail.html).toContain(
      `<a href="${PUBLIC_URL}/requests/${n}/results/${resultId}">open the result</a>`,
    );
    expect(mail.html).not.toContain(`open the result (`);
    expect(mail.attachments).toEqual([expect.objectContaining({ name: 'result.pdf' })]);
  });

  it('links instead of attaching above 10 MB, to the large-file recipient', async () => {
    await setEntry('requestSettings', {
      resultQualityAssuredRecipient: 'results@sender.example',
      resultQualityAssuredLargeFileRecipient: 'bigfiles@sender.example',
    });
    const n = await newRequest();
    const small = await insertLargeResult(n, 10 * 1024 * 1024);
    const large = await insertLargeResult(n, 10 * 1024 * 1024 + 1);
    expect((await resultAction(n, small, 'qualityAssure')).statusCode).toBe(200);
    expect((await resultAction(n, large, 'qualityAssure')).statusCode).toBe(200);
    await settle();
    const [first, second] = await mailAbout(t.db, n);
    assert(first);
    assert(second);
    expect(first.to).toBe('results@sender.example');
    expect(first.attachments).toHaveLength(1);
    expect(second.to).toBe('bigfiles@sender.example');
    expect(second.text).toContain(`A large result of request ${n} is ready to download:`);
    expect(second.text).toContain(`${PUBLIC_URL}/requests/${n}/results/${large}`);
    expect(second.attachments).toEqual([]);
  });

  it('tells a discard to its recipient with a blind copy to the bcc recipient', async () => {
    await setEntry('requestSettings', {
      resultDiscardedRecipient: 'discards@sender.example',
      resultNotificationsBccRecipient: 'archive@dossier.example',
    });
    const n = await newRequest();
    const resultId = await addResult(n);
    expect((await resultAction(n, resultId, 'discard')).statusCode).toBe(200);
    await settle();
    const mails = await mailAbout(t.db, n);
    expect(mails.map((m) => m.to)).toEqual(['discards@sender.example', 'archive@dossier.example']);
    // A message of its own: the recipient's copy does not show the bcc address.
    expect(mails[0]!.text).not.toContain('archive@');
    expect(mails[1]!.subject).toBe(mails[0]!.subject);
    expect(mails[0]?.text).toContain(`A result received for request ${n} was discarded.`);
  });

  it('does not tell the sender of a discarded result it never saw, and tells it of one it had', async () => {
    await setEntry('requestSettings', { resultDiscardedRecipient: '', resultNotificationsBccRecipient: '' });
    const n = await newRequest();
    const unseen = await addResult(n);
    expect((await resultAction(n, unseen, 'discard')).statusCode).toBe(200);
    await settle();
    expect(await mailAbout(t.db, n)).toEqual([]);
    const seen = await addResult(n);
    expect((await resultAction(n, seen, 'qualityAssure')).statusCode).toBe(200);
    await settle();
    expect((await resultAction(n, seen, 'discard')).statusCode).toBe(200);
    await settle();
    const subjects = (await mailAbout(t.db, n)).map((m) => [m.to, m.subject]);
    expect(subjects).toEqual([
      ['submitter@test.example', `A result of request ${n} is ready`],
      ['submitter@test.example', `A result of request ${n} was discarded`],
    ]);
  });

  it('delivers a result at once when its quality assurance is skipped', async () => {
    await setEntry('requestSettings', { disableResultQualityAssurance: true });
    const n = await newRequest();
    const resultId = await addResult(n);
    await settle();
    expect(await tasksOf(t.db, n)).toEqual([]);
    const [mail, ...rest] = await mailAbout(t.db, n);
    assert(mail);
    expect(rest).toEqual([]);
    expect(mail.to).toBe('submitter@test.example');
    expect(mail.text).toContain(`/requests/${n}/results/${resultId}`);
    expect(mail.attachments).toHaveLength(1);
  });

  it('closes the request when the last result is quality assured, delivering each and telling the close', async () => {
    await setEntry('requestSettings', {
      autoCloseRequestWhenAllResultsAreQualityAssured: true,
      notifyRequestSenderWhenClosed: true,
    });
    const n = await newRequest();
    const first = await addResult(n);
    const second = await addResult(n);
    await settle();
    expect(await resultAction(n, first, 'qualityAssure')).toMatchObject({ statusCode: 200 });
    await settle();
    const status = async () =>
      (await t.db.selectFrom('requests').select('status').where('request_number', '=', n).executeTakeFirst())
        ?.status;
    expect(await status()).toBe('open');
    expect(await resultAction(n, second, 'qualityAssure')).toMatchObject({ statusCode: 200 });
    await settle();
    expect(await status()).toBe('closed');
    const subjects = (await mailAbout(t.db, n)).map((m) => m.subject);
    expect(subjects).toEqual([
      `A result of request ${n} is ready`,
      `A result of request ${n} is ready`,
      `Request ${n} closed`,
    ]);
    expect((await tasksOf(t.db, n)).every((task) => task.completed_at !== null)).toBe(true);
  });
});

describe('new user activation', () => {
  beforeAll(() => createUser(t.db, { id: 'admin', roles: [{ role: 'c:roles:admin', scope: '/' }] }));

  it('mails an activation link from newUserActivation when an administrator creates a user', async () => {
    const admin = caller(t.app, await signIn(t.app, 'admin'));
    const res = await admin.post('/admin/users/edit', {
      userId: 'newbie',
      name: 'New Bie',
      email: 'newbie@acme.example',
      phone: '+61291234567',
      scope: '/org/acme/',
      country: 'AU',
      language: 'en-au',
      roles: ['c:roles:submitter@/org/acme/'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [mail] = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to', '=', 'newbie@acme.example')
      .execute();
    assert(mail);
    expect(mail.text).toContain('Welcome New Bie.');
    const link = /https?:\/\/\S+\/set-password\?token=[\w%-]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    const view = await caller(t.app).get(new URL(link as string).pathname + new URL(link as string).search);
    // A first password activates the account: the page says so, not "Your password has been changed."
    expect(view.json()).toMatchObject({
      $type: 'setPassword',
      userId: 'newbie',
      title: 'Activate Your Account',
      firstPassword: true,
    });
    const token = new URL(link as string).searchParams.get('token');
    const set = await caller(t.app).post('/set-password', { token, password: 'Newbie-Pass-2026!' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ title: 'Account Activated', firstPassword: true });
  });

  it('mails no activation link to a user created with a password', async () => {
    const admin = caller(t.app, await signIn(t.app, 'admin'));
    const res = await admin.post('/admin/users/edit', {
      userId: 'withpass',
      name: 'With Pass',
      email: 'withpass@acme.example',
      phone: '+61291234567',
      scope: '/org/acme/',
      country: 'AU',
      language: 'en-au',
      roles: ['c:roles:submitter@/org/acme/'],
      password: 'Withpass-Pass-2026!',
    });
    expect(res.statusCode, res.body).toBe(200);
    const mails = await t.db
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to', '=', 'withpass@acme.example')
      .execute();
    expect(mails).toEqual([]);
  });
});
