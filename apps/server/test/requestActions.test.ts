import { mentionToken, type RequestView, richTextFromParagraphs } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { WorkflowEngine } from '../src/features/workflow/engine.js';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { setRequestSettings } from './support/resultsInvoices.js';

let t: TestContext;
let handler: ReturnType<typeof caller>;
let colleague: ReturnType<typeof caller>;
let submitter: ReturnType<typeof caller>;
let advisor: ReturnType<typeof caller>;
let globex: ReturnType<typeof caller>;
let n: string;

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, { id: 'colleague', roles: [{ role: 'c:roles:handler', scope: '/org/' }] });
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
    id: 'globex',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/globex/' }],
  });
  handler = caller(t.app, await signIn(t.app, 'handler'));
  colleague = caller(t.app, await signIn(t.app, 'colleague'));
  submitter = caller(t.app, await signIn(t.app, 'submitter'));
  advisor = caller(t.app, await signIn(t.app, 'advisor'));
  globex = caller(t.app, await signIn(t.app, 'globex'));
  n = await insertTestRequest(t.db, {
    scope: '/org/acme/',
    submittedBy: 'submitter',
    externalUserReferences: ['adv-1'],
  });
});
afterAll(() => t.close());

const act = (who: ReturnType<typeof caller>, action: string, body: unknown, number = n) =>
  who.post(`/requests/${number}/actions/${action}`, body);
const view = async () => (await handler.get(`/requests/${n}`)).json() as RequestView;
const counts = async () => ({
  tasks: Number(
    (
      await t.db
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll().as('c'))
        .executeTakeFirstOrThrow()
    ).c,
  ),
  notes: Number(
    (
      await t.db
        .selectFrom('correspondence')
        .select((eb) => eb.fn.countAll().as('c'))
        .executeTakeFirstOrThrow()
    ).c,
  ),
  events: Number(
    (
      await t.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll().as('c'))
        .where('aggregate_type', '=', 'request')
        .executeTakeFirstOrThrow()
    ).c,
  ),
});

describe('addTask', () => {
  it('rejects bad input with field errors and adds nothing', async () => {
    const before = await counts();
    const res = await act(handler, 'addTask', {
      type: 'senderUrgentNote',
      dueDate: '2026-02-30x',
      dueTime: '25:00',
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual(['dueDate', 'dueTime', 'type']);
    expect(
      (await act(handler, 'addTask', { type: 'followUp', dueDate: '2001-01-01' })).json().fields.dueDate,
    ).toBe('The due date is in the past.');
    expect(await counts()).toEqual(before);
  });

  it('adds a task with the default due date and notice, or with none (9999-12-31)', async () => {
    expect((await act(handler, 'addTask', { type: 'followUp' })).statusCode).toBe(200);
    expect(
      (
        await act(handler, 'addTask', {
          type: 'actionDeferred',
          dueDate: '9999-12-31',
          notice: 'Waiting on the GP.',
        })
      ).statusCode,
    ).toBe(200);
    const v = await view();
    const follow = v.tasks.find((task) => task.type === 'followUp');
    expect(follow?.notice).toBe('Follow up with the recipient on the progress of this request.');
    expect(follow?.subject).toBe('Follow Up: Jane Citizen');
    expect(new Date(follow?.dueAt ?? 0).getTime()).toBeGreaterThan(Date.now() + 2 * 86_400_000);
    expect(v.recipientTasks.map((task) => task.type)).toEqual(['followUp']);
    const deferred = v.tasks.find((task) => task.type === 'actionDeferred');
    expect(deferred?.dueAt?.startsWith('9999-12-31')).toBe(true);
    expect(deferred?.notice).toBe('Waiting on the GP.');
    expect(v.history[0]?.summary).toBe('Added the task Action Deferred (no due date).');
  });

  it('answers the request view as it is after the action, with the id of what it made', async () => {
    const before = await view();
    const res = await act(handler, 'addTask', { type: 'followUp', notice: 'One round trip.' });
    expect(res.statusCode).toBe(200);
    const answer = res.json() as RequestView & { taskId: string };
    expect(answer.$type).toBe('request');
    expect(answer.request.version).toBeGreaterThan(before.request.version);
    expect(answer.tasks.find((task) => task.taskId === answer.taskId)?.notice).toBe('One round trip.');
    // What a fetch would show now (the KPI figures aside, which count time).
    const fetched = await view();
    expect(answer.request.version).toBe(fetched.request.version);
    expect(answer.tasks).toEqual(fetched.tasks);
    expect(answer.history).toEqual(fetched.history);
    expect(answer.actions).toEqual(fetched.actions);
  });

  it('is for handlers only', async () => {
    expect((await act(submitter, 'addTask', { type: 'followUp' })).statusCode).toBe(403);
    expect((await act(globex, 'addTask', { type: 'followUp' })).statusCode).toBe(403);
  });
});

describe('addNote', () => {
  it('rejects an empty body', async () => {
    const before = await counts();
    const res = await act(handler, 'addNote', { body: { type: 'doc', content: [] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.body).toBe('This field is required.');
    expect(
      (await act(handler, 'addNote', { body: 'x', isUrgent: 'yes' })).json().fields.isUrgent,
    ).toBeDefined();
    expect(await counts()).toEqual(before);
  });

  it('adds an urgent note with a mention: the colleague is notified and the workflow raises a senderUrgentNote task', async () => {
    const body = richTextFromParagraphs(
      `Please call the clinic, ${mentionToken('User colleague', 'colleague')}.`,
    );
    const res = await act(handler, 'addNote', { body, isUrgent: true });
    expect(res.statusCode).toBe(200);
    const note = await t.db
      .selectFrom('correspondence')
      .selectAll()
      .where('request_number', '=', n)
      .where('kind', '=', 'note')
      .executeTakeFirstOrThrow();
    expect(note.is_urgent_note).toBe(true);
    expect((note.body as { type: string }).type).toBe('richText');
    const notifications = (await colleague.get('/notifications')).json();
    const list = (notifications.notifications ?? notifications) as { type: string; target: string }[];
    expect(list).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'mention', target: `/requests/${n}` })]),
    );
    expect((await view()).history[0]?.summary).toBe('Added an urgent note mentioning User colleague.');
    // The task is the workflow's reaction to the note (workflowSender.test.ts has the details).
    await new WorkflowEngine(t.db, { log: { warn: () => undefined }, config: t.config }).drain();
    expect((await view()).tasks.some((task) => task.type === 'senderUrgentNote')).toBe(true);
  });

  it('does not notify a mentioned user who may not see the request', async () => {
    const body = richTextFromParagraphs(`FYI ${mentionToken('Globex', 'globex')}`);
    expect((await act(handler, 'addNote', { body })).statusCode).toBe(200);
    const rows = await t.db.selectFrom('notifications').selectAll().where('user_id', '=', 'globex').execute();
    expect(rows).toHaveLength(0);
  });

  it('refuses an urgent note from a user without canAddUrgentNote, but takes a plain one', async () => {
    const before = await counts();
    const body = richTextFromParagraphs('Please hurry.');
    const urgent = await act(advisor, 'addNote', { body, isUrgent: true });
    expect(urgent.statusCode).toBe(403);
    expect(await counts()).toEqual(before);
    expect((await act(advisor, 'addNote', { body })).statusCode).toBe(200);
    expect((await act(submitter, 'addNote', { body, isUrgent: true })).statusCode).toBe(200);
    expect((await act(globex, 'addNote', { body })).statusCode).toBe(403);
  });
});

describe('closeRequest and reOpenRequest', () => {
  it('re-open is refused while the request is open', async () => {
    expect((await act(handler, 'reOpenRequest', { tags: { reOpenReason: 'Sender query' } })).statusCode).toBe(
      409,
    );
  });

  it('close rejects missing or unknown tags and changes nothing', async () => {
    const before = await counts();
    const res = await act(handler, 'closeRequest', { tags: { closeReason: 'Bored', other: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual(['tags.closeReason', 'tags.other']);
    const missing = await act(handler, 'closeRequest', { tags: {} });
    expect(missing.json().fields['tags.closeReason']).toBe('Close Reason is required.');
    expect(await counts()).toEqual(before);
    expect((await view()).request.status).toBe('submitted');
  });

  it('closes with the default notice as a note; closing twice answers 409; submitters may not close', async () => {
    expect((await act(submitter, 'closeRequest', { tags: { closeReason: 'Completed' } })).statusCode).toBe(
      403,
    );
    expect(
      (await act(handler, 'closeRequest', { tags: { closeReason: 'Completed' }, notice: '' })).statusCode,
    ).toBe(200);
    const v = await view();
    expect(v.request.status).toBe('closed');
    expect(v.request.closedAt).toBeDefined();
    expect(v.actions).toContain('reOpenRequest');
    expect(v.actions).not.toContain('closeRequest');
    expect(v.editableParts).toEqual([]);
    expect(v.history[0]?.summary).toBe('Closed the request (Close Reason: Completed).');
    const note = await t.db
      .selectFrom('correspondence')
      .select('body')
      .where('request_number', '=', n)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(note.body).toEqual({
      type: 'text',
      content: 'The request has been closed. (Close Reason: Completed)',
    });
    const notified = await t.db
      .selectFrom('notifications')
      .select('type')
      .where('user_id', '=', 'submitter')
      .execute();
    expect(notified.map((r) => r.type)).toContain('requestClosed');
    expect((await act(handler, 'closeRequest', { tags: { closeReason: 'Completed' } })).statusCode).toBe(409);
    expect((await act(handler, 'addTask', { type: 'followUp' })).statusCode).toBe(409);
  });

  it('re-opens with the default notice, back to submitted; bad tags are refused first', async () => {
    const bad = await act(handler, 'reOpenRequest', { tags: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields['tags.reOpenReason']).toBeDefined();
    expect((await act(handler, 'reOpenRequest', { tags: { reOpenReason: 'Sender query' } })).statusCode).toBe(
      200,
    );
    const v = await view();
    expect(v.request.status).toBe('submitted');
    expect(v.request.closedAt).toBeUndefined();
    expect(v.history[0]?.summary).toBe('Re-opened the request (Re-open Reason: Sender query).');
    const note = await t.db
      .selectFrom('correspondence')
      .select('body')
      .where('request_number', '=', n)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(note.body).toEqual({ type: 'text', content: 'The request has been re-opened.' });
    expect((await act(handler, 'reOpenRequest', { tags: { reOpenReason: 'Sender query' } })).statusCode).toBe(
      409,
    );
  });

  it('is not offered when the request settings disable re-opening', async () => {
    await setRequestSettings(t, '/org/noreopen/', { disableReOpenRequest: true });
    // Written behind the configuration service's back: drop its cached snapshot.
    invalidateConfigurationCache(t.db);
    const r = await insertTestRequest(t.db, { scope: '/org/noreopen/', status: 'closed' });
    const v = (await handler.get(`/requests/${r}`)).json() as RequestView;
    expect(v.actions).not.toContain('reOpenRequest');
    expect(
      (await act(handler, 'reOpenRequest', { tags: { reOpenReason: 'Sender query' } }, r)).statusCode,
    ).toBe(403);
  });
});
