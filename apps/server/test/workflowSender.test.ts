import { type RequestView, richTextFromParagraphs, TRAINABLE_TASK_TYPES } from '@dossier/core';
import { afterAll, assert, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { WorkflowEngine } from '../src/features/workflow/engine.js';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import {
  backdatePending,
  configureScope,
  listenAs,
  mailAbout,
  setRootEntry,
  tasksOf,
  train,
} from './support/workflow.js';

// The sender's side of the workflow, driven through the routes and the engine: an urgent note raises
// a senderUrgentNote task; a senderActionRequired task is the sender's (assigned to nobody, no
// fallback) and the sender answers it with a note or by completing it, which adds a
// senderActionResponse task for staff. Each from its event to the task, its due date (Christmas
// holidays in between), its assignee, the live push and the mail.

let t: TestContext;
let engine: WorkflowEngine;
let pushed: Record<string, unknown>[];
type Caller = ReturnType<typeof caller>;
let hana: Caller;
let submitter: Caller;
let advisor: Caller;
let globex: Caller;
let quiet: Caller;

/** Thursday 24 December 2026, 10:00 in Sydney; Friday 25 and Monday 28 are public holidays. */
const CHRISTMAS_EVE = new Date('2026-12-23T23:00:00Z');
/** One business day later: Tuesday 29 December, 10:00 in Sydney. */
const ONE_DAY_LATER = '2026-12-28T23:00:00.000Z';
/** Two business days later: Wednesday 30 December, 10:00 in Sydney. */
const TWO_DAYS_LATER = '2026-12-29T23:00:00.000Z';

beforeAll(async () => {
  t = await createTestContext({ publicUrl: 'https://dossier.example' });
  await seedConfiguration(t.db, { demo: true });
  // A sender organisation that switched workflow tasks off.
  await configureScope(t.db, '/org/quiet/', [
    {
      id: 'requestSettings',
      type: 'requestSettingsEntry',
      isDefault: true,
      data: { requestNumberPrefix: 'QUI', disableWorkflowTasks: true },
    },
  ]);
  await setRootEntry(t.db, 'taskSenderUrgentNote', { notifyOtherWhenTriggered: ['urgent@dossier.example'] });
  await setRootEntry(t.db, 'taskSenderActionResponse', {
    notifyOtherWhenTriggered: ['desk@dossier.example'],
  });
  await createUser(t.db, { id: 'hana', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await train(t.db, 'hana', TRAINABLE_TASK_TYPES);
  const submitterOf = (id: string, scope: string) =>
    createUser(t.db, { id, scope, roles: [{ role: 'c:roles:submitter', scope }] });
  await submitterOf('submitter', '/org/acme/');
  await submitterOf('globex', '/org/globex/');
  await submitterOf('quiet', '/org/quiet/');
  await createUser(t.db, {
    id: 'advisor',
    roles: [{ role: 'c:roles:external', scope: '/org/acme/', externalReference: 'adv-1' }],
  });
  hana = caller(t.app, await signIn(t.app, 'hana'));
  submitter = caller(t.app, await signIn(t.app, 'submitter'));
  advisor = caller(t.app, await signIn(t.app, 'advisor'));
  globex = caller(t.app, await signIn(t.app, 'globex'));
  quiet = caller(t.app, await signIn(t.app, 'quiet'));
  pushed = listenAs(t.live, 'hana');
  engine = new WorkflowEngine(t.db, { live: t.live, log: { warn: () => undefined }, config: t.config });
});
afterAll(async () => {
  await engine.stop();
  await t.close();
});
beforeEach(() => {
  pushed.length = 0;
});

async function settle() {
  await engine.drain();
  // Pushes are NOTIFYs delivered after commit through the hub's listening connection.
  await new Promise((r) => setTimeout(r, 150));
}

const newRequest = (scope = '/org/acme/', submittedBy = 'submitter') =>
  insertTestRequest(t.db, {
    scope,
    prefix: scope === '/org/quiet/' ? 'QUI' : 'ACM',
    status: 'open',
    submittedBy,
    externalUserReferences: ['adv-1'],
  });
const note = (who: Caller, n: string, text: string, isUrgent = false) =>
  who.post(`/requests/${n}/actions/addNote`, { body: richTextFromParagraphs(text), isUrgent });
const ofType = async (n: string, type: string) => (await tasksOf(t.db, n)).filter((x) => x.type === type);
const pushedTo = (taskId: string) => pushed.filter((m) => m.$type === 'workflowTask' && m.taskId === taskId);

async function requireAction(n: string, notice = 'Please sign the authority again.') {
  const res = await hana.post(`/requests/${n}/actions/addTask`, { type: 'senderActionRequired', notice });
  expect(res.statusCode, res.body).toBe(200);
  await settle();
  return res.json().taskId as string;
}

describe('urgent note -> senderUrgentNote', () => {
  it('raises the task from the note, due one business day later across the holidays, assigned, pushed and mailed', async () => {
    const n = await newRequest();
    const res = await note(submitter, n, 'The applicant has withdrawn consent, stop now.', true);
    expect(res.statusCode, res.body).toBe(200);
    // Nothing yet: the task is the workflow's reaction, after the commit.
    expect(await tasksOf(t.db, n)).toEqual([]);
    await backdatePending(t.db, n, CHRISTMAS_EVE);
    await settle();
    const [task, ...rest] = await tasksOf(t.db, n);
    expect(rest).toEqual([]);
    expect(task).toMatchObject({
      type: 'senderUrgentNote',
      notice: 'The applicant has withdrawn consent, stop now.',
      assigned_to: 'hana',
      triggered_by: 'submitter',
    });
    expect(task?.due_at?.toISOString()).toBe(ONE_DAY_LATER);
    expect(pushedTo(task!.id)).toHaveLength(1);
    const [mail] = await mailAbout(t.db, n);
    expect(mail).toMatchObject({ to: 'urgent@dossier.example', subject: `Sender Urgent Note for ${n}` });
    // Urgent notes are no answer to anything: no sender action was open.
    expect(await ofType(n, 'senderActionResponse')).toEqual([]);
  });

  it('raises nothing for a plain note, nor where workflow tasks are disabled', async () => {
    const n = await newRequest();
    expect((await note(hana, n, 'Called the clinic.')).statusCode).toBe(200);
    const q = await newRequest('/org/quiet/', 'quiet');
    expect((await note(quiet, q, 'Urgent: wrong applicant.', true)).statusCode).toBe(200);
    await settle();
    expect(await tasksOf(t.db, n)).toEqual([]);
    expect(await tasksOf(t.db, q)).toEqual([]);
    const notes = await t.db
      .selectFrom('correspondence')
      .select('id')
      .where('request_number', '=', q)
      .execute();
    expect(notes).toHaveLength(1);
  });
});

describe('senderActionRequired is the sender’s task', () => {
  it('is assigned to nobody, raises no fallback, and is offered to the sender on the request page', async () => {
    const n = await newRequest();
    const taskId = await requireAction(n);
    const tasks = await tasksOf(t.db, n);
    expect(tasks.map((x) => [x.type, x.assigned_to])).toEqual([['senderActionRequired', null]]);
    // The sender is told in the app and by mail (from the senderActionRequired template).
    const [mail] = await mailAbout(t.db, n);
    assert(mail);
    expect(mail).toMatchObject({ to: 'submitter@test.example', subject: `Request ${n} needs your action` });
    expect(mail.text).toContain('Please sign the authority again.');
    const told = await t.db
      .selectFrom('notifications')
      .select('type')
      .where('user_id', '=', 'submitter')
      .where('target', '=', `/requests/${n}`)
      .execute();
    expect(told.map((x) => x.type)).toEqual(['requestTaskAdded']);
    for (const who of [submitter, advisor]) {
      const view = (await who.get(`/requests/${n}`)).json() as RequestView;
      expect(view.actions).toContain('addNote');
      expect(view.tasks.find((x) => x.taskId === taskId)).toMatchObject({
        canNotComplete: false,
        canNotMarkInProgress: true,
      });
    }
    // Another organisation's submitter may not see it at all.
    expect((await globex.get(`/requests/${n}`)).statusCode).toBe(403);
  });
});

describe('senderActionRequired answered by the sender -> senderActionResponse', () => {
  it('a note by the sender completes the task and adds the response, due two business days later, assigned and mailed', async () => {
    const n = await newRequest();
    const required = await requireAction(n);
    // A note by staff is no answer.
    expect((await note(hana, n, 'Waiting for the sender.')).statusCode).toBe(200);
    await settle();
    expect((await ofType(n, 'senderActionRequired'))[0]?.completed_at).toBeNull();

    const res = await note(submitter, n, 'Signed authority attached to the request.');
    expect(res.statusCode, res.body).toBe(200);
    await backdatePending(t.db, n, CHRISTMAS_EVE);
    await settle();
    const [done] = await ofType(n, 'senderActionRequired');
    expect(done).toMatchObject({ id: required, completed_by: 'submitter' });
    const [response, ...more] = await ofType(n, 'senderActionResponse');
    expect(more).toEqual([]);
    expect(response).toMatchObject({
      assigned_to: 'hana',
      triggered_by: 'submitter',
      notice: 'The sender answered with a note: Signed authority attached to the request.',
    });
    expect(response?.due_at?.toISOString()).toBe(TWO_DAYS_LATER);
    expect(pushedTo(response!.id)).toHaveLength(1);
    expect(await ofType(n, 'fallback')).toEqual([]);
    const mails = (await mailAbout(t.db, n)).map((m) => [m.to, m.subject]);
    expect(mails).toContainEqual(['desk@dossier.example', `Sender Action Response for ${n}`]);
    const history = ((await hana.get(`/requests/${n}`)).json() as RequestView).history.map((h) => h.summary);
    expect(history).toContain('Completed the task Sender Action Required.');
  });

  it('an external user of the request answers by completing the task from the page', async () => {
    const n = await newRequest();
    const required = await requireAction(n);
    const res = await advisor.post(`/tasks/${required}/complete`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().task).toMatchObject({ completedByDisplayName: 'User advisor', canNotComplete: true });
    await settle();
    const [response] = await ofType(n, 'senderActionResponse');
    expect(response).toMatchObject({ assigned_to: 'hana', triggered_by: 'advisor' });
    // Completing it again, or answering again by note, adds nothing more.
    expect((await advisor.post(`/tasks/${required}/complete`, {})).statusCode).toBe(409);
    expect((await note(submitter, n, 'Anything else?')).statusCode).toBe(200);
    await settle();
    expect(await ofType(n, 'senderActionResponse')).toHaveLength(1);
  });

  it('refuses other scopes and other tasks, and bad input, changing nothing', async () => {
    const n = await newRequest();
    const required = await requireAction(n);
    const deferred = (await hana.post(`/requests/${n}/actions/addTask`, { type: 'actionDeferred' })).json()
      .taskId as string;
    await settle();
    // Another organisation's submitter: refused, and told nothing about the request.
    const other = await globex.post(`/tasks/${required}/complete`, {});
    expect(other.statusCode).toBe(403);
    expect(other.body).not.toContain(n);
    expect((await globex.post(`/requests/${n}/actions/addNote`, { body: 'x' })).statusCode).toBe(403);
    // The sender answers its own task only; marking in progress stays with staff.
    expect((await submitter.post(`/tasks/${deferred}/complete`, {})).statusCode).toBe(403);
    expect((await submitter.post(`/tasks/${required}/mark-in-progress`, {})).statusCode).toBe(403);
    // An empty note is refused with its field and answers nothing.
    const empty = await submitter.post(`/requests/${n}/actions/addNote`, {
      body: { type: 'doc', content: [] },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.body).toBe('This field is required.');
    await settle();
    expect((await ofType(n, 'senderActionRequired'))[0]?.completed_at).toBeNull();
    expect(await ofType(n, 'senderActionResponse')).toEqual([]);
  });

  it('where workflow tasks are disabled the answer completes the task but adds no response', async () => {
    const q = await newRequest('/org/quiet/', 'quiet');
    const required = await requireAction(q);
    expect((await note(quiet, q, 'Done, see attached.')).statusCode).toBe(200);
    await settle();
    const tasks = await tasksOf(t.db, q);
    expect(tasks.map((x) => [x.id, x.type, x.completed_by])).toEqual([
      [required, 'senderActionRequired', 'quiet'],
    ]);
  });
});
