import type { RequestTaskItem } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { chooseAssignee } from '../src/features/assignment/choose.js';
import { reassignOpenTasks } from '../src/features/assignment/service.js';
import { WorkflowEngine } from '../src/features/workflow/engine.js';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { configureScope, insertEvent, listenAs, tasksOf, train } from './support/workflow.js';

// Assignment by skills, scope and grouping; reassignment when skills change or a user is disabled;
// the fallback; and the task actions (complete, mark in progress) with their offer rules.

let t: TestContext;
let engine: WorkflowEngine;
const log = { warn: () => undefined };

beforeAll(async () => {
  t = await createTestContext();
  await seedConfiguration(t.db, { demo: true });
  // Initech groups strictly; Hooli's tasks may go to nobody (no one is trained for its scope).
  await configureScope(t.db, '/org/initech/', [
    {
      id: 'scopeInitech',
      type: 'scopeEntry',
      data: {
        scopePath: '/org/initech/',
        workflowTaskAssignerGroupingBehaviour: 'strict',
        usages: ['submitRequest'],
      },
    },
  ]);
  for (const id of ['dana', 'eli', 'fay'])
    await createUser(t.db, { id, roles: [{ role: 'c:roles:handler', scope: '/org/' }] });
  await createUser(t.db, { id: 'gus', roles: [{ role: 'c:roles:handler', scope: '/org/globex/' }] });
  await createUser(t.db, { id: 'hooli', roles: [{ role: 'c:roles:handler', scope: '/ext/hooli/' }] });
  await train(t.db, 'dana', ['issueRequest', 'followUp']);
  await train(t.db, 'eli', ['issueRequest', 'fallback']);
  await train(t.db, 'gus');
  engine = new WorkflowEngine(t.db, { live: t.live, log, config: t.config });
});
afterAll(async () => {
  await engine.stop();
  await t.close();
});

async function submitted(scope: string) {
  const n = await insertTestRequest(t.db, { scope, prefix: 'ASG' });
  await insertEvent(t.db, { type: 'request.submitted', requestNumber: n });
  await engine.drain();
  return n;
}

describe('choosing the assignee', () => {
  const candidates = [
    { userId: 'a', openTasks: 3 },
    { userId: 'b', openTasks: 1 },
    { userId: 'c', openTasks: 1 },
  ];
  it('gives the least loaded candidate (ties by id) when grouping is disabled', () => {
    expect(
      chooseAssignee({ grouping: 'disabled', candidates, holder: { userId: 'a', isCandidate: true } }),
    ).toBe('b');
  });
  it('prefers the holder of the request when lax, if a candidate', () => {
    expect(chooseAssignee({ grouping: 'lax', candidates, holder: { userId: 'a', isCandidate: true } })).toBe(
      'a',
    );
    expect(chooseAssignee({ grouping: 'lax', candidates, holder: { userId: 'z', isCandidate: false } })).toBe(
      'b',
    );
  });
  it('keeps every task with the holder when strict', () => {
    expect(
      chooseAssignee({ grouping: 'strict', candidates, holder: { userId: 'z', isCandidate: false } }),
    ).toBe('z');
  });
  it('gives nobody when there is no candidate', () => {
    expect(chooseAssignee({ grouping: 'lax', candidates: [] })).toBeUndefined();
  });
});

describe('assignment by skills and scope', () => {
  it('balances between trained, active users who may handle the request', async () => {
    const first = await submitted('/org/acme/');
    const second = await submitted('/org/acme/');
    const assignees = [
      (await tasksOf(t.db, first))[0]?.assigned_to,
      (await tasksOf(t.db, second))[0]?.assigned_to,
    ];
    // gus is trained for everything but handles Globex only; fay is untrained.
    expect(assignees.sort()).toEqual(['dana', 'eli']);
  });

  it('gives a task nobody may take to the fallback and settles it once someone is trained', async () => {
    const n = await submitted('/ext/hooli/');
    let tasks = await tasksOf(t.db, n);
    expect(tasks.map((x) => [x.type, x.assigned_to])).toEqual([
      ['issueRequest', null],
      ['fallback', null],
    ]);
    const received = listenAs(t.live, 'hooli');
    await train(t.db, 'hooli', ['issueRequest']);
    await t.db.transaction().execute((trx) => reassignOpenTasks(trx, undefined, { userId: 'hooli' }, t.live));
    tasks = await tasksOf(t.db, n);
    expect(tasks[0]?.assigned_to).toBe('hooli');
    expect(tasks[1]?.completed_at).not.toBeNull();
    await new Promise((r) => setTimeout(r, 150));
    expect(received.some((m) => m.taskId === tasks[0]?.id && m.isAssignedTo === 'hooli')).toBe(true);
  });

  it("assigns the sender's senderActionRequired task to nobody and raises no fallback, even when strict", async () => {
    for (const scope of ['/org/acme/', '/org/initech/']) {
      const n = await submitted(scope);
      const { id: taskId } = await t.db
        .insertInto('tasks')
        .values({
          type: 'senderActionRequired',
          subject: 'x',
          request_number: n,
          scope,
          due_at: new Date(Date.now() + 86_400_000),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertEvent(t.db, {
        type: 'request.taskAdded',
        requestNumber: n,
        payload: { taskId, type: 'senderActionRequired' },
      });
      await engine.drain();
      const tasks = await tasksOf(t.db, n);
      expect(tasks.map((x) => [x.type, x.assigned_to === null])).toEqual([
        ['issueRequest', false],
        ['senderActionRequired', true],
      ]);
      // A reassignment pass (skills changed) leaves it alone too.
      const holder = tasks[0]!.assigned_to!;
      await t.db.transaction().execute((trx) => reassignOpenTasks(trx, undefined, { userId: holder }));
      expect((await tasksOf(t.db, n)).map((x) => x.type)).toEqual(['issueRequest', 'senderActionRequired']);
    }
  });

  it('keeps all tasks of a request with its holder when the scope groups strictly', async () => {
    const n = await submitted('/org/initech/');
    const holder = (await tasksOf(t.db, n))[0]?.assigned_to;
    const { id: taskId } = await t.db
      .insertInto('tasks')
      .values({
        type: 'actionDeferred',
        subject: 'x',
        request_number: n,
        scope: '/org/initech/',
        due_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertEvent(t.db, {
      type: 'request.taskAdded',
      requestNumber: n,
      payload: { taskId, type: 'actionDeferred' },
    });
    await engine.drain();
    // Nobody is trained for actionDeferred, yet the request stays with one person.
    expect((await tasksOf(t.db, n)).map((x) => x.assigned_to)).toEqual([holder, holder]);
  });
});

describe('reassignment', () => {
  it('moves open tasks away from a user whose skill went inactive, pushing to both users', async () => {
    const n = await submitted('/org/acme/');
    const [task] = await tasksOf(t.db, n);
    const from = task!.assigned_to!;
    const to = from === 'dana' ? 'eli' : 'dana';
    const fromPushes = listenAs(t.live, from);
    const toPushes = listenAs(t.live, to);
    await train(t.db, from, ['issueRequest'], false);
    await t.db.transaction().execute((trx) => reassignOpenTasks(trx, undefined, { userId: from }, t.live));
    expect((await tasksOf(t.db, n))[0]?.assigned_to).toBe(to);
    await new Promise((r) => setTimeout(r, 150));
    expect(fromPushes.some((m) => m.taskId === task!.id && m.isAssignedTo === to)).toBe(true);
    expect(toPushes.some((m) => m.taskId === task!.id && m.isAssignedTo === to)).toBe(true);
    await train(t.db, from, ['issueRequest'], true);
  });

  it('moves open tasks away from a disabled user', async () => {
    const n = await submitted('/org/acme/');
    const from = (await tasksOf(t.db, n))[0]!.assigned_to!;
    await t.db.updateTable('users').set({ disabled: true }).where('id', '=', from).execute();
    await t.db.transaction().execute((trx) => reassignOpenTasks(trx, undefined, { userId: from }));
    expect((await tasksOf(t.db, n))[0]?.assigned_to).not.toBe(from);
    await t.db.updateTable('users').set({ disabled: false }).where('id', '=', from).execute();
  });
});

describe('task actions', () => {
  const post = async (user: string, url: string) => caller(t.app, await signIn(t.app, user)).post(url, {});

  it('completes a task, recording it completed on time, and refuses a second time', async () => {
    const n = await submitted('/org/acme/');
    const [task] = await tasksOf(t.db, n);
    const res = await post('fay', `/tasks/${task!.id}/complete`);
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json().task as RequestTaskItem;
    expect(item).toMatchObject({
      taskId: task!.id,
      completedByDisplayName: 'User fay',
      wasCompletedBeforeDueDate: true,
    });
    // A done task keeps its due date (the Due column shows it); completedAt marks it done.
    expect(item.dueAt).toBe(task!.due_at?.toISOString());
    expect(item.completedAt).toBeDefined();
    expect((await post('fay', `/tasks/${task!.id}/complete`)).statusCode).toBe(409);
    const events = await t.db.selectFrom('events').select('type').where('aggregate_id', '=', n).execute();
    expect(events.map((e) => e.type)).toContain('request.taskCompleted');
  });

  it('records an overdue completion', async () => {
    const n = await submitted('/org/acme/');
    const [task] = await tasksOf(t.db, n);
    await t.db
      .updateTable('tasks')
      .set({ due_at: new Date(Date.now() - 3600_000) })
      .where('id', '=', task!.id)
      .execute();
    const res = await post('dana', `/tasks/${task!.id}/complete`);
    expect(res.json().task.wasCompletedBeforeDueDate).toBe(false);
    expect((await tasksOf(t.db, n))[0]?.was_overdue).toBe(true);
  });

  it('refuses another scope (403) and unknown tasks (404), changing nothing', async () => {
    const n = await submitted('/org/acme/');
    const [task] = await tasksOf(t.db, n);
    expect((await post('gus', `/tasks/${task!.id}/complete`)).statusCode).toBe(403);
    expect((await post('gus', `/tasks/${task!.id}/mark-in-progress`)).statusCode).toBe(403);
    expect((await tasksOf(t.db, n))[0]?.completed_at).toBeNull();
    expect((await post('dana', '/tasks/99999999/complete')).statusCode).toBe(404);
    expect((await post('dana', '/tasks/not-a-task/complete')).statusCode).toBe(404);
  });

  it('marks only an open senderActionRequired task in progress, once', async () => {
    const handler = caller(t.app, await signIn(t.app, 'dana'));
    const n = await insertTestRequest(t.db, { scope: '/org/acme/', prefix: 'ASG', status: 'open' });
    const add = await handler.post(`/requests/${n}/actions/addTask`, { type: 'senderActionRequired' });
    expect(add.statusCode, add.body).toBe(200);
    const taskId = add.json().taskId as string;
    const res = await handler.post(`/tasks/${taskId}/mark-in-progress`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().task).toMatchObject({
      markedInProgressByDisplayName: 'User dana',
      canNotMarkInProgress: true,
    });
    expect((await handler.post(`/tasks/${taskId}/mark-in-progress`, {})).statusCode).toBe(409);
    const other = await submitted('/org/acme/');
    const [issue] = await tasksOf(t.db, other);
    expect((await handler.post(`/tasks/${issue!.id}/mark-in-progress`, {})).statusCode).toBe(409);
  });
});
