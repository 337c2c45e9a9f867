import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { listRequestHistory } from '../src/features/requests/historyRepository.js';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { listenAs, tasksOf, train } from './support/workflow.js';

// Moving a task by hand (issue 22 item 5): claim, assign to a named user, release, the picker's
// list; who may; the refusals with their reasons; the history lines and the live pushes; and the
// reassignment of a disabled user's tasks, recorded in the history too.

let t: TestContext;
const as: Record<string, ReturnType<typeof caller>> = {};

beforeAll(async () => {
  t = await createTestContext();
  await seedConfiguration(t.db, { demo: true });
  const handler = (scope: string) => [{ role: 'c:roles:handler', scope }];
  await createUser(t.db, { id: 'harper', roles: handler('/org/') });
  await createUser(t.db, { id: 'hayden', roles: handler('/org/') });
  await createUser(t.db, { id: 'una', roles: handler('/org/') });
  await createUser(t.db, { id: 'gus', roles: handler('/org/globex/') });
  await createUser(t.db, { id: 'morgan', roles: [{ role: 'c:roles:manager', scope: '/org/' }] });
  await createUser(t.db, { id: 'sam', roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }] });
  await createUser(t.db, { id: 'boss', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await train(t.db, 'harper');
  await train(t.db, 'hayden', ['qualityAssureResult']);
  await train(t.db, 'gus');
  for (const id of ['harper', 'hayden', 'una', 'gus', 'morgan', 'sam', 'boss'])
    as[id] = caller(t.app, await signIn(t.app, id));
});
afterAll(() => t.close());

/** A request of Acme with one open task of the type, assigned to `assignee` (or nobody). */
async function openTask(type = 'qualityAssureResult', assignee: string | null = null) {
  const n = await insertTestRequest(t.db, { scope: '/org/acme/', prefix: 'HND', status: 'open' });
  const { id } = await t.db
    .insertInto('tasks')
    .values({
      type,
      subject: 'Jane Citizen',
      request_number: n,
      scope: '/org/acme/',
      assigned_to: assignee,
      due_at: new Date(Date.now() + 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { n, id };
}

async function history(n: string) {
  const rows = await t.db
    .selectFrom('events')
    .select(['type', 'actor', 'payload'])
    .where('aggregate_type', '=', 'request')
    .where('aggregate_id', '=', n)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    type: r.type,
    actor: r.actor,
    summary: (r.payload as { summary: string }).summary,
  }));
}

const settle = () => new Promise((r) => setTimeout(r, 150));
const assignee = async (id: string) =>
  (await t.db.selectFrom('tasks').select('assigned_to').where('id', '=', id).executeTakeFirstOrThrow())
    .assigned_to;

describe('claim', () => {
  it('gives the task to a trained handler of the request, records it and pushes it', async () => {
    const { n, id } = await openTask();
    const pushes = listenAs(t.live, 'harper');
    const res = await as.harper!.post(`/tasks/${id}/claim`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().task).toMatchObject({
      taskId: id,
      isAssignedTo: 'harper',
      isAssignedToDisplayName: 'User harper',
      canNotClaim: true,
      canNotRelease: false,
      canNotAssign: false,
    });
    expect(await history(n)).toContainEqual({
      type: 'request.taskClaimed',
      actor: 'harper',
      summary: 'User harper claimed Quality Assure Result.',
    });
    await settle();
    expect(pushes.some((m) => m.taskId === id && m.isAssignedTo === 'harper')).toBe(true);
    expect((await as.harper!.post(`/tasks/${id}/claim`, {})).statusCode).toBe(409);
  });

  it('refuses a handler without the skill, saying why, and changes nothing', async () => {
    const { id } = await openTask();
    const res = await as.una!.post(`/tasks/${id}/claim`, {});
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('User una has no trained skill for Quality Assure Result.');
    expect(await assignee(id)).toBeNull();
  });

  it("settles the request's fallback once nobody's task is unassigned", async () => {
    const { n, id } = await openTask();
    const fallback = await t.db
      .insertInto('tasks')
      .values({
        type: 'fallback',
        subject: 'x',
        request_number: n,
        scope: '/org/acme/',
        due_at: new Date(Date.now() + 86_400_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await as.hayden!.post(`/tasks/${id}/claim`, {})).statusCode).toBe(200);
    const row = await t.db
      .selectFrom('tasks')
      .select('completed_at')
      .where('id', '=', fallback.id)
      .executeTakeFirstOrThrow();
    expect(row.completed_at).not.toBeNull();
  });
});

describe('assign', () => {
  it('gives the task to a trained user, records it and pushes it to the new and the previous assignee', async () => {
    const { n, id } = await openTask('qualityAssureResult', 'harper');
    const harper = listenAs(t.live, 'harper');
    const hayden = listenAs(t.live, 'hayden');
    const res = await as.harper!.post(`/tasks/${id}/assign`, { userId: 'hayden' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().task).toMatchObject({
      isAssignedTo: 'hayden',
      canNotClaim: false,
      canNotRelease: true,
    });
    expect(await history(n)).toContainEqual({
      type: 'request.taskAssigned',
      actor: 'harper',
      summary: 'User harper assigned Quality Assure Result to User hayden.',
    });
    // Who of the staff holds a task is not the sender's business.
    const senderSide = await listRequestHistory(t.db, n, { staff: false });
    expect(senderSide.map((e) => e.type)).not.toContain('request.taskAssigned');
    await settle();
    expect(hayden.some((m) => m.taskId === id && m.isAssignedTo === 'hayden')).toBe(true);
    // The previous assignee is told too, so the task leaves its list.
    expect(harper.some((m) => m.taskId === id && m.isAssignedTo === 'hayden')).toBe(true);
  });

  it('refuses an untrained user and a user outside the scope with the reason on userId', async () => {
    const { n, id } = await openTask();
    const untrained = await as.harper!.post(`/tasks/${id}/assign`, { userId: 'una' });
    expect(untrained.statusCode).toBe(400);
    expect(untrained.json().fields).toEqual({
      userId: 'User una has no trained skill for Quality Assure Result.',
    });
    const outside = await as.harper!.post(`/tasks/${id}/assign`, { userId: 'gus' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().fields).toEqual({ userId: 'User gus does not work requests of /org/acme/.' });
    // Without the role (and so without the skill), the role is the reason given.
    const sender = await as.harper!.post(`/tasks/${id}/assign`, { userId: 'sam' });
    expect(sender.json().fields).toEqual({ userId: 'User sam does not work requests of /org/acme/.' });
    const unknown = await as.harper!.post(`/tasks/${id}/assign`, { userId: 'nobody-at-all' });
    expect(unknown.json().fields).toEqual({ userId: 'No such user.' });
    await t.db.updateTable('users').set({ disabled: true }).where('id', '=', 'hayden').execute();
    const disabled = await as.harper!.post(`/tasks/${id}/assign`, { userId: 'hayden' });
    await t.db.updateTable('users').set({ disabled: false }).where('id', '=', 'hayden').execute();
    expect(disabled.json().fields).toEqual({ userId: 'User hayden is disabled.' });
    expect(await assignee(id)).toBeNull();
    expect((await history(n)).map((e) => e.type)).not.toContain('request.taskAssigned');
  });

  it('refuses hostile input with 400 and a field, never 5xx', async () => {
    const { id } = await openTask();
    for (const body of [
      {},
      { userId: '' },
      { userId: 42 },
      { userId: 'x'.repeat(5000) },
      { userId: 'a\u0000b' },
    ]) {
      const res = await as.harper!.post(`/tasks/${id}/assign`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {})).toEqual(['userId']);
    }
    const already = await as.harper!.post(`/tasks/${id}/claim`, {});
    expect(already.statusCode).toBe(200);
    const again = await as.harper!.post(`/tasks/${id}/assign`, { userId: 'harper' });
    expect(again.json().fields).toEqual({ userId: 'The task is already assigned to User harper.' });
  });

  it('lets a manager of the scope assign and list assignees; refuses a submitter and another organisation', async () => {
    const { id } = await openTask();
    const list = await as.morgan!.get(`/tasks/${id}/assignees`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().assignees.map((a: { userId: string }) => a.userId)).toEqual(['harper', 'hayden']);
    expect(list.json().assignees[0]).toMatchObject({ name: 'User harper', isAssignee: false });
    // Each load shown is the user's open tasks, as counted from the tasks themselves (the list
    // reads the kept count of migration 7001).
    const openOf = async (userId: string) =>
      Number(
        (
          await t.db
            .selectFrom('tasks')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('assigned_to', '=', userId)
            .where('completed_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const loads = async () =>
      Object.fromEntries(
        (await as.morgan!.get(`/tasks/${id}/assignees`))
          .json()
          .assignees.map((a: { userId: string; openTasks: number }) => [a.userId, a.openTasks]),
      );
    const before = await loads();
    expect(before).toEqual({ harper: await openOf('harper'), hayden: await openOf('hayden') });
    expect((await as.morgan!.post(`/tasks/${id}/assign`, { userId: 'hayden' })).statusCode).toBe(200);
    expect(await loads()).toEqual({ harper: before.harper, hayden: before.hayden + 1 });
    // A manager holds no handling role: it may not claim.
    expect((await as.morgan!.post(`/tasks/${id}/claim`, {})).statusCode).toBe(403);
    for (const who of ['sam', 'gus']) {
      expect((await as[who]!.get(`/tasks/${id}/assignees`)).statusCode).toBe(403);
      expect((await as[who]!.post(`/tasks/${id}/assign`, { userId: who })).statusCode).toBe(403);
      expect((await as[who]!.post(`/tasks/${id}/claim`, {})).statusCode).toBe(403);
      expect((await as[who]!.post(`/tasks/${id}/release`, {})).statusCode).toBe(403);
    }
    expect(await assignee(id)).toBe('hayden');
    expect((await as.harper!.get('/tasks/99999999/assignees')).statusCode).toBe(404);
    expect((await as.harper!.post('/tasks/not-a-task/claim', {})).statusCode).toBe(404);
    expect((await as.harper!.post(`/tasks/${'9'.repeat(40)}/release`, {})).statusCode).toBe(400);
  });
});

describe('release', () => {
  it('hands the task back; it goes to another candidate, never the releaser', async () => {
    const { n, id } = await openTask('qualityAssureResult', 'hayden');
    const harper = listenAs(t.live, 'harper');
    const hayden = listenAs(t.live, 'hayden');
    expect((await as.harper!.post(`/tasks/${id}/release`, {})).statusCode).toBe(409);
    const res = await as.hayden!.post(`/tasks/${id}/release`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().task.isAssignedTo).toBe('harper');
    expect(await history(n)).toContainEqual({
      type: 'request.taskReleased',
      actor: 'hayden',
      summary: 'User hayden released Quality Assure Result; it went to User harper.',
    });
    await settle();
    expect(hayden.some((m) => m.taskId === id && m.isAssignedTo === null)).toBe(true);
    expect(harper.some((m) => m.taskId === id && m.isAssignedTo === 'harper')).toBe(true);
  });

  it('leaves a task nobody else may take unassigned, with the fallback', async () => {
    const { n, id } = await openTask('payInvoice', 'harper');
    const res = await as.harper!.post(`/tasks/${id}/release`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().task.isAssignedTo).toBeUndefined();
    const tasks = await tasksOf(t.db, n);
    expect(tasks.map((x) => [x.type, x.completed_at === null])).toEqual([
      ['payInvoice', true],
      ['fallback', true],
    ]);
    expect((await history(n)).map((e) => e.summary)).toContain(
      'User harper released Pay Invoice; nobody else may take it, so it awaits assignment.',
    );
  });
});

describe('completed tasks', () => {
  it('refuse every move with 409 and the reason', async () => {
    const { id } = await openTask('qualityAssureResult', 'harper');
    expect((await as.harper!.post(`/tasks/${id}/complete`, {})).statusCode).toBe(200);
    for (const res of [
      await as.harper!.post(`/tasks/${id}/claim`, {}),
      await as.harper!.post(`/tasks/${id}/assign`, { userId: 'hayden' }),
      await as.harper!.post(`/tasks/${id}/release`, {}),
      await as.harper!.get(`/tasks/${id}/assignees`),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('The task is already completed.');
    }
  });
});

describe("a disabled user's open tasks", () => {
  it('move to others when an administrator disables the user, each recorded in the history', async () => {
    const { n, id } = await openTask('qualityAssureResult', 'hayden');
    const harper = listenAs(t.live, 'harper');
    const user = (await as.boss!.get('/admin/users/edit/hayden')).json().user;
    const res = await as.boss!.post('/admin/users/edit/hayden', {
      ...user,
      phone: '02 9876 5432',
      disabled: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await assignee(id)).toBe('harper');
    expect(await history(n)).toContainEqual({
      type: 'request.taskReassigned',
      actor: null,
      summary:
        'The assignment moved Quality Assure Result from User hayden to User harper (User hayden was disabled).',
    });
    await settle();
    expect(harper.some((m) => m.taskId === id && m.isAssignedTo === 'harper')).toBe(true);
    await t.db.updateTable('users').set({ disabled: false }).where('id', '=', 'hayden').execute();
  });
});
