import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, seedScopes } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { train } from './support/workflow.js';

// Issue 32 items 3 and 4: roles taken from a user take effect in the session it still has open.
// Its tasks go to others, as when a user is disabled; a task it still holds (the reassignment not yet
// run) is neither listed to it nor worked by it; and whoever may act on a task but not view its
// request gets the task's answer without the page, decided before anything is committed.

let t: TestContext;
let root: ReturnType<typeof caller>;
const APPLICANT = 'Quentin Revokedapplicant';

beforeAll(async () => {
  t = await createTestContext();
  await seedScopes(t.db);
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  for (const id of ['hana', 'hugo'])
    await createUser(t.db, {
      id,
      scope: '/org/acme/',
      roles: [{ role: 'c:roles:handler', scope: '/org/acme/' }],
    });
  await createUser(t.db, {
    id: 'nina',
    scope: '/org/',
    roles: [{ role: 'c:roles:handler', scope: '/org/' }],
  });
  await createUser(t.db, {
    id: 'mona',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:manager', scope: '/org/acme/' }],
  });
  for (const id of ['hana', 'hugo', 'nina']) await train(t.db, id);
  root = caller(t.app, await signIn(t.app, 'root'));
});
afterAll(() => t.close());

async function openTask(requestNumber: string, assignee: string, scope = '/org/acme/') {
  const { id } = await t.db
    .insertInto('tasks')
    .values({
      type: 'followUp',
      subject: APPLICANT,
      request_number: requestNumber,
      scope,
      assigned_to: assignee,
      due_at: new Date(Date.now() + 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

const taskRow = (id: string) =>
  t.db
    .selectFrom('tasks')
    .select(['assigned_to', 'completed_at', 'completed_by'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const historyOf = async (n: string) =>
  (await root.get(`/requests/${n}`)).json().history.map((h: { summary: string }) => h.summary) as string[];

/** Sets the user's roles through the user screens, as an administrator does. */
async function setRoles(userId: string, roles: string[]) {
  const view = await root.get(`/admin/users/edit/${userId}`);
  expect(view.statusCode, view.body).toBe(200);
  const saved = await root.post(`/admin/users/edit/${userId}`, {
    ...view.json().user,
    phone: '02 9876 5432',
    roles,
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

describe('a user whose roles are removed, in its still-open session', () => {
  it('loses its tasks to others, and no longer lists, completes or releases them', async () => {
    const n = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      prefix: 'RVK',
      status: 'open',
      applicant: { name: APPLICANT },
    });
    const task = await openTask(n, 'hana');
    const hana = caller(t.app, await signIn(t.app, 'hana'));
    // The control: before, the task is hana's and listed to her with the applicant's name.
    const before = await hana.get('/tasks/assigned');
    expect(before.json().tasks.map((x: { taskId: string }) => x.taskId)).toContain(task);

    await setRoles('hana', []);

    // The assignment took the task from her (as disabling her would have), and says why.
    expect((await taskRow(task)).assigned_to).toBe('hugo');
    expect(await historyOf(n)).toContain(
      'The assignment moved Follow Up from User hana to User hugo (the roles of User hana changed).',
    );
    const listed = await hana.get('/tasks/assigned');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().tasks).toEqual([]);
    expect(listed.body).not.toContain(APPLICANT);

    // Until the reassignment has run (a job, on a busy system) the task may still be hers: the
    // actions read her roles as they are now, not whose name the task carries.
    await t.db.updateTable('tasks').set({ assigned_to: 'hana' }).where('id', '=', task).execute();
    const stillListed = await hana.get('/tasks/assigned');
    expect(stillListed.json().tasks).toEqual([]);
    expect(stillListed.body).not.toContain(APPLICANT);
    for (const action of ['complete', 'release', 'claim', 'mark-in-progress']) {
      const res = await hana.post(`/tasks/${task}/${action}`, {});
      expect(res.statusCode, `${action}: ${res.body}`).toBe(403);
      expect(res.body).not.toContain(APPLICANT);
    }
    expect(await taskRow(task)).toMatchObject({ assigned_to: 'hana', completed_at: null });
    expect((await historyOf(n)).filter((s) => s.includes('User hana completed'))).toEqual([]);
    expect((await hana.get(`/tasks/${task}/assignees`)).statusCode).toBe(403);
  });

  it('loses the tasks outside the roles it keeps when they are narrowed, and keeps the others', async () => {
    const acme = await insertTestRequest(t.db, { scope: '/org/acme/', prefix: 'NRW', status: 'open' });
    const globex = await insertTestRequest(t.db, { scope: '/org/globex/', prefix: 'NRW', status: 'open' });
    const acmeTask = await openTask(acme, 'nina');
    const globexTask = await openTask(globex, 'nina', '/org/globex/');
    const nina = caller(t.app, await signIn(t.app, 'nina'));
    expect((await nina.get('/tasks/assigned')).json().tasks).toHaveLength(2);

    await setRoles('nina', ['c:roles:handler@/org/globex/']);

    expect((await taskRow(acmeTask)).assigned_to).not.toBe('nina');
    expect((await taskRow(globexTask)).assigned_to).toBe('nina');
    expect((await nina.get('/tasks/assigned')).json().tasks.map((x: { taskId: string }) => x.taskId)).toEqual(
      [globexTask],
    );
    const done = await nina.post(`/tasks/${globexTask}/complete`, {});
    expect(done.statusCode, done.body).toBe(200);
  });
});

describe('an action whose answer would be the request view', () => {
  it('refuses a user who may not work the task before anything is committed', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/', prefix: 'ANS', status: 'open' });
    await createUser(t.db, {
      id: 'hal',
      scope: '/org/acme/',
      roles: [{ role: 'c:roles:handler', scope: '/org/acme/' }],
    });
    const hal = caller(t.app, await signIn(t.app, 'hal'));
    await setRoles('hal', []);
    const task = await openTask(n, 'hal');
    const res = await hal.post(`/tasks/${task}/complete?answer=request`, {});
    expect(res.statusCode, res.body).toBe(403);
    expect(await taskRow(task)).toMatchObject({ completed_at: null, completed_by: null });
  });

  it('answers the task alone, 200, to one who may act on it but not view its request', async () => {
    // A task kept at /org/acme/ on a request of /org/globex/: the manager of /org/acme/ may give
    // it to someone (task:skills at the task's scope) but may not view the Globex request.
    const n = await insertTestRequest(t.db, { scope: '/org/globex/', prefix: 'ANS', status: 'open' });
    const task = await openTask(n, 'nina');
    await t.db.updateTable('tasks').set({ assigned_to: null }).where('id', '=', task).execute();
    const mona = caller(t.app, await signIn(t.app, 'mona'));
    expect((await mona.get(`/requests/${n}`)).statusCode).toBe(403);
    const res = await mona.post(`/tasks/${task}/assign?answer=request`, { userId: 'hugo' });
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json())).toEqual(['task']);
    expect(res.json().task).toMatchObject({ taskId: task, isAssignedTo: 'hugo' });
    expect((await taskRow(task)).assigned_to).toBe('hugo');
  });
});
