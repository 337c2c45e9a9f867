import { requestViewSchema } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { train } from './support/workflow.js';

// What the request page's own writes outside its actions answer (issue 16): a task's move or
// completion, and a note's edit, answer the request view as it now is beside their own answer when
// the page asks with ?answer=request, so each costs the page one call. Without it the answers stay
// as other callers (the task overlay, the dashboard) read them, and a task without a request (an
// inbox message's) answers { task } either way.

let t: TestContext;
const as: Record<string, ReturnType<typeof caller>> = {};

beforeAll(async () => {
  t = await createTestContext();
  await seedConfiguration(t.db, { demo: true });
  const handler = [{ role: 'c:roles:handler', scope: '/org/' }];
  await createUser(t.db, { id: 'harper', roles: handler });
  await createUser(t.db, { id: 'hayden', roles: handler });
  await createUser(t.db, { id: 'boss', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await train(t.db, 'harper');
  await train(t.db, 'hayden');
  for (const id of ['harper', 'hayden', 'boss']) as[id] = caller(t.app, await signIn(t.app, id));
});
afterAll(() => t.close());

async function openTask(type: string, requestNumber: string | null, assignee: string | null = null) {
  const { id } = await t.db
    .insertInto('tasks')
    .values({
      type,
      subject: 'Jane Citizen',
      request_number: requestNumber,
      scope: '/org/acme/',
      assigned_to: assignee,
      due_at: new Date(Date.now() + 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

const newRequest = () => insertTestRequest(t.db, { scope: '/org/acme/', prefix: 'ANS', status: 'open' });

/** The answer read as the request view, the write's own key (`task`, `item`) set aside. */
function asRequestView(answer: Record<string, unknown>, n: string) {
  const { task: _task, item: _item, ...rest } = answer;
  const view = requestViewSchema.parse(rest);
  expect(view.request.requestNumber).toBe(n);
  return view;
}

describe('a task action asked for the request view', () => {
  it('claim, assign and release answer the view with the move in it, beside the task', async () => {
    const n = await newRequest();
    const id = await openTask('qualityAssureResult', n);
    const claimed = await as.harper!.post(`/tasks/${id}/claim?answer=request`, {});
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().task).toMatchObject({ taskId: id, isAssignedTo: 'harper' });
    const afterClaim = asRequestView(claimed.json(), n);
    expect(afterClaim.tasks.find((x) => x.taskId === id)?.isAssignedTo).toBe('harper');
    expect(afterClaim.history.map((h) => h.summary)).toContain('User harper claimed Quality Assure Result.');

    const assigned = await as.harper!.post(`/tasks/${id}/assign?answer=request`, { userId: 'hayden' });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const afterAssign = asRequestView(assigned.json(), n);
    expect(afterAssign.tasks.find((x) => x.taskId === id)?.isAssignedTo).toBe('hayden');

    const released = await as.hayden!.post(`/tasks/${id}/release?answer=request`, {});
    expect(released.statusCode, released.body).toBe(200);
    const afterRelease = asRequestView(released.json(), n);
    expect(afterRelease.tasks.find((x) => x.taskId === id)?.isAssignedTo).toBe(
      released.json().task.isAssignedTo,
    );
  });

  it('mark in progress and complete answer the view with the task done', async () => {
    const n = await newRequest();
    const id = await openTask('senderActionRequired', n);
    const marked = await as.harper!.post(`/tasks/${id}/mark-in-progress?answer=request`, {});
    expect(marked.statusCode, marked.body).toBe(200);
    const afterMark = asRequestView(marked.json(), n);
    expect(afterMark.tasks.find((x) => x.taskId === id)?.markedInProgressAt).toBeTruthy();

    const done = await as.harper!.post(`/tasks/${id}/complete?answer=request`, {});
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().task).toMatchObject({ taskId: id });
    const afterDone = asRequestView(done.json(), n);
    expect(afterDone.tasks.find((x) => x.taskId === id)?.completedAt).toBeTruthy();
  });

  it('still refuses as before, with no view', async () => {
    const n = await newRequest();
    const id = await openTask('qualityAssureResult', n, 'harper');
    const refused = await as.harper!.post(`/tasks/${id}/claim?answer=request`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().$type).toBeUndefined();
    expect((await as.harper!.post(`/tasks/${id}/complete?answer=other`, {})).statusCode).toBe(400);
  });
});

describe('a task action not asked for the view', () => {
  it('answers { task } only, as the task overlay and the dashboard read it', async () => {
    const n = await newRequest();
    const id = await openTask('qualityAssureResult', n);
    const claimed = await as.harper!.post(`/tasks/${id}/claim`, {});
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(Object.keys(claimed.json())).toEqual(['task']);
    const released = await as.harper!.post(`/tasks/${id}/release`, {});
    expect(Object.keys(released.json())).toEqual(['task']);
    const done = await as.harper!.post(`/tasks/${id}/complete`, {});
    expect(done.statusCode, done.body).toBe(200);
    expect(Object.keys(done.json())).toEqual(['task']);
  });

  it('answers { task } for a task without a request even when asked', async () => {
    const id = await openTask('checkInboxMessage', null);
    const done = await as.boss!.post(`/tasks/${id}/complete?answer=request`, {});
    expect(done.statusCode, done.body).toBe(200);
    expect(Object.keys(done.json())).toEqual(['task']);
  });
});

describe("a note's edit", () => {
  const doc = (text: string) => ({
    type: 'doc',
    content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
  });

  it('answers { item }, and the request view beside it when asked', async () => {
    const n = await newRequest();
    const added = await as.harper!.post(`/requests/${n}/actions/addNote`, { body: doc('First words') });
    expect(added.statusCode, added.body).toBe(200);
    const messageId = added.json().messageId as string;

    const plain = await as.harper!.post(`/requests/${n}/correspondence/${messageId}`, {
      content: doc('Second words'),
    });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(Object.keys(plain.json())).toEqual(['item']);

    const asked = await as.harper!.post(`/requests/${n}/correspondence/${messageId}?answer=request`, {
      content: doc('Third words'),
    });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().item.messageId).toBe(messageId);
    const view = asRequestView(asked.json(), n);
    const entry = view.correspondence.find((c) => c.messageId === messageId);
    expect(JSON.stringify(entry?.body)).toContain('Third words');
  });

  it('refuses as before when asked for the view', async () => {
    const n = await newRequest();
    const added = await as.harper!.post(`/requests/${n}/actions/addNote`, { body: doc('Mine') });
    const refused = await as.hayden!.post(
      `/requests/${n}/correspondence/${added.json().messageId}?answer=request`,
      { content: doc('Not mine') },
    );
    expect(refused.statusCode).toBe(403);
  });
});
