import { richTextFromParagraphs } from '@dossier/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { sendWorkflowMailRule } from '../src/features/workflowMail/rule.js';
import { sendTaskEventMail, sendWorkflowMail } from '../src/features/workflowMail/service.js';
import { caller, seedScopes } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// Each mail rule of the workflow: with its flag (or recipient) set the rendered template is queued
// in the outbox, without it nothing is. Events are produced by the real routes where they exist
// (close, re-open) and handed to sendWorkflowMail as the workflow engine does.

let t: TestContext;
let handler: ReturnType<typeof caller>;
let n: string;

const deps = () => ({ config: t.config });
const CLOSE = { notice: 'Done.', tags: { closeReason: 'Completed' } };
const REOPEN = { notice: 'Again.', tags: { reOpenReason: 'Sender query' } };

async function setEntry(id: string, data: Record<string, unknown>) {
  await sql`update configuration_entries set data = data || ${JSON.stringify(data)}::jsonb
            where configuration_id = (select id from configurations where scope_path = '/') and id = ${id}`.execute(
    t.db,
  );
  invalidateConfigurationCache(t.db);
}

const outbox = () => t.db.selectFrom('mail_outbox').selectAll().orderBy('id').execute();

async function handle(event: { type: string; aggregate_id: string; payload: unknown }) {
  return t.db.transaction().execute((trx) => sendWorkflowMail(trx, deps(), event));
}

/** The newest event of a type on the request, as the engine reads it. */
const lastEvent = (type: string) =>
  t.db
    .selectFrom('events')
    .select(['type', 'aggregate_id', 'payload'])
    .where('aggregate_id', '=', n)
    .where('type', '=', type)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();

async function insertResult(size: number): Promise<string> {
  const key = `file-${size}-${Math.random().toString(36).slice(2)}`;
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

beforeAll(async () => {
  t = await createTestContext();
  await seedScopes(t.db);
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
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
  handler = caller(t.app, await signIn(t.app, 'handler'));
  n = await insertTestRequest(t.db, {
    scope: '/org/acme/',
    status: 'open',
    submittedBy: 'submitter',
    externalUserReferences: ['adv-1'],
  });
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.deleteFrom('mail_outbox').execute();
});

describe('request closed and re-opened', () => {
  it('sends nothing while the notify flags are off', async () => {
    const res = await handler.post(`/requests/${n}/actions/closeRequest`, CLOSE);
    expect(res.statusCode, res.body).toBe(200);
    expect(await handle(await lastEvent('request.closed'))).toBe(0);
    expect(await outbox()).toEqual([]);
    const reopened = await handler.post(`/requests/${n}/actions/reOpenRequest`, REOPEN);
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(await handle(await lastEvent('request.reOpened'))).toBe(0);
  });

  it('mails the sender, the external users and the other addresses from the requestClosed template', async () => {
    await setEntry('requestSettings', {
      notifyRequestSenderWhenClosed: true,
      notifyExternalUsersWhenClosed: true,
      notifyOtherWhenClosed: ['audit@other.example', 'not an address'],
    });
    await handler.post(`/requests/${n}/actions/closeRequest`, CLOSE);
    expect(await handle(await lastEvent('request.closed'))).toBe(3);
    const mails = await outbox();
    expect(mails.map((m) => m.to).sort()).toEqual([
      'advisor@test.example',
      'audit@other.example',
      'submitter@test.example',
    ]);
    // The seeded template: subject and body with the request's data.
    expect(mails[0].subject).toBe(`Request ${n} closed`);
    expect(mails[0].text).toContain(`Request ${n} was closed on `);
    expect(mails[0].html).toContain(`<p>Request ${n} was closed on `);

    await handler.post(`/requests/${n}/actions/reOpenRequest`, REOPEN);
    // Re-opening has flags of its own, still off.
    expect(await handle(await lastEvent('request.reOpened'))).toBe(0);
  });

  it('renders the configured template and mails on re-open only as its flags say', async () => {
    await setEntry('requestSettings', { notifyRequestSenderWhenReOpened: true });
    await setEntry('templateRequestReOpened', {
      subject: '${request.applicant.name}: ${request.requestNumber} is open again',
      body: richTextFromParagraphs(
        'Hello, ${request.requestNumber} for ${request.applicant.name} was re-opened.',
      ),
    });
    await handler.post(`/requests/${n}/actions/closeRequest`, CLOSE);
    await handler.post(`/requests/${n}/actions/reOpenRequest`, REOPEN);
    await t.db.deleteFrom('mail_outbox').execute();
    expect(await handle(await lastEvent('request.reOpened'))).toBe(1);
    const [mail] = await outbox();
    expect(mail).toMatchObject({
      to: 'submitter@test.example',
      subject: `Jane Citizen: ${n} is open again`,
    });
    expect(mail.text).toContain(`Hello, ${n} for Jane Citizen was re-opened.`);
  });
});

describe('results', () => {
  it('delivers a quality-assured result to the sender with the file attached', async () => {
    const resultId = await insertResult(2000);
    expect(
      await handle({ type: 'request.resultQualityAssured', aggregate_id: n, payload: { resultId } }),
    ).toBe(1);
    const [mail] = await outbox();
    expect(mail.to).toBe('submitter@test.example');
    expect(mail.text).toContain(`A result of request ${n} is ready: open the result (`);
    expect(mail.text).toContain(`/requests/${n}/results/${resultId}`);
    expect(mail.attachments).toEqual([expect.objectContaining({ name: 'records.pdf' })]);
  });

  it('uses the large-file template and recipient above 10 MB, without attaching the file', async () => {
    await setEntry('requestSettings', {
      resultQualityAssuredRecipient: 'results@sender.example',
      resultQualityAssuredLargeFileRecipient: 'bigfiles@sender.example',
    });
    const small = await insertResult(5 * 1024 * 1024);
    await handle({ type: 'request.resultQualityAssured', aggregate_id: n, payload: { resultId: small } });
    const large = await insertResult(11 * 1024 * 1024);
    await handle({ type: 'request.resultQualityAssured', aggregate_id: n, payload: { resultId: large } });
    const [first, second] = await outbox();
    expect(first.to).toBe('results@sender.example');
    expect(second.to).toBe('bigfiles@sender.example');
    expect(second.text).toContain(`A large result of request ${n} is ready to download:`);
    expect(second.attachments).toEqual([]);
  });

  it('tells the discard to its recipient with a blind copy to the bcc recipient', async () => {
    await setEntry('requestSettings', {
      resultDiscardedRecipient: 'discards@sender.example',
      resultNotificationsBccRecipient: 'archive@dossier.example',
    });
    const resultId = await insertResult(1000);
    expect(await handle({ type: 'request.resultDiscarded', aggregate_id: n, payload: { resultId } })).toBe(2);
    const mails = await outbox();
    expect(mails.map((m) => m.to)).toEqual(['discards@sender.example', 'archive@dossier.example']);
    // A message of its own: the recipient's copy does not show the bcc address.
    expect(mails[0].text).not.toContain('archive@');
    expect(mails[1].subject).toBe(mails[0].subject);
    expect(mails[0].text).toContain(`A result received for request ${n} was discarded.`);
  });

  it('ignores a result of another request', async () => {
    const other = await insertTestRequest(t.db, { scope: '/org/acme/', submittedBy: 'submitter' });
    const resultId = await insertResult(1000);
    expect(
      await handle({ type: 'request.resultDiscarded', aggregate_id: other, payload: { resultId } }),
    ).toBe(0);
  });
});

describe('tasks', () => {
  async function addTask(type: string) {
    const res = await handler.post(`/requests/${n}/actions/addTask`, { type, notice: 'Please call them.' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().taskId as string;
  }

  it('sends nothing for a triggered or completed task while the flags are off', async () => {
    const taskId = await addTask('followUp');
    expect(await handle(await lastEvent('request.taskAdded'))).toBe(0);
    expect(await handle({ type: 'task.completed', aggregate_id: n, payload: { taskId } })).toBe(0);
    expect(await outbox()).toEqual([]);
  });

  it('mails per the task type flags from workflowTaskTriggered and workflowTaskCompleted', async () => {
    await setEntry('taskFollowUp', {
      notifyRequestSenderWhenTriggered: true,
      notifyOtherWhenTriggered: ['ops@other.example'],
      notifyExternalUsersWhenCompleted: true,
    });
    const taskId = await addTask('followUp');
    expect(await handle({ type: 'task.triggered', aggregate_id: n, payload: { taskId } })).toBe(2);
    const triggered = await outbox();
    expect(triggered.map((m) => m.to).sort()).toEqual(['ops@other.example', 'submitter@test.example']);
    expect(triggered[0].subject).toBe(`Follow Up for ${n}`);
    expect(triggered[0].text).toContain(`A task was created for request ${n}: Follow Up: Jane Citizen. Due `);

    await t.db
      .updateTable('tasks')
      .set({ completed_at: new Date(), due_at: null })
      .where('id', '=', taskId)
      .execute();
    await t.db.deleteFrom('mail_outbox').execute();
    expect(await handle({ type: 'task.completed', aggregate_id: n, payload: { taskId } })).toBe(1);
    const [completed] = await outbox();
    expect(completed).toMatchObject({ to: 'advisor@test.example', subject: `Follow Up completed for ${n}` });
  });

  it('always tells the sender of a senderActionRequired task, from its own template', async () => {
    const taskId = await addTask('senderActionRequired');
    expect(await handle({ type: 'task.triggered', aggregate_id: n, payload: { taskId } })).toBe(1);
    const [mail] = await outbox();
    expect(mail.to).toBe('submitter@test.example');
    expect(mail.text).toContain(`Request ${n} needs your action: Please call them.`);
  });

  it('notifies the sender in the app when a senderActionRequired task is added (requestTaskAdded)', async () => {
    await addTask('senderActionRequired');
    const notifications = await t.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', 'submitter')
      .where('type', '=', 'requestTaskAdded')
      .execute();
    expect(notifications.length).toBeGreaterThan(0);
    expect(notifications[0]).toMatchObject({ target: `/requests/${n}` });
    expect(notifications[0].text).toContain('added the task Sender Action Required');
  });
});

describe('wiring', () => {
  it('runs as a workflow engine rule and for tasks created by rules', async () => {
    await setEntry('requestSettings', {
      notifyRequestSenderWhenClosed: true,
      notifyExternalUsersWhenClosed: false,
      notifyOtherWhenClosed: [],
    });
    await handler.post(`/requests/${n}/actions/closeRequest`, CLOSE);
    const row = await lastEvent('request.closed');
    await t.db.deleteFrom('mail_outbox').execute();
    await t.db.transaction().execute((trx) =>
      sendWorkflowMailRule.handle({
        trx,
        deps: {},
        event: { id: '1', type: row.type, requestNumber: n, actor: null, payload: {}, createdAt: new Date() },
        request: {} as never,
        settings: undefined,
      }),
    );
    expect((await outbox()).map((m) => m.to)).toEqual(['submitter@test.example']);
    await handler.post(`/requests/${n}/actions/reOpenRequest`, REOPEN);

    const taskId = (
      await handler.post(`/requests/${n}/actions/addTask`, { type: 'senderActionRequired' })
    ).json().taskId;
    await t.db.deleteFrom('mail_outbox').execute();
    expect(await t.db.transaction().execute((trx) => sendTaskEventMail(trx, {}, taskId, 'triggered'))).toBe(
      1,
    );
  });
});

describe('new user activation', () => {
  it('mails an activation link from newUserActivation when an administrator creates a user', async () => {
    await createUser(t.db, { id: 'admin', roles: [{ role: 'c:roles:admin', scope: '/' }] });
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
    const [mail] = await outbox();
    expect(mail.to).toBe('newbie@acme.example');
    expect(mail.text).toContain('Welcome New Bie.');
    const link = /https?:\/\/\S+\/set-password\?token=[\w%-]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    const view = await caller(t.app).get(new URL(link as string).pathname + new URL(link as string).search);
    expect(view.json()).toMatchObject({ $type: 'setPassword', userId: 'newbie' });
  });
});
