import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
  // Only the tasks the user may work are listed (a handler's, issue 32).
  const handler = [{ role: 'c:roles:handler', scope: '/' }];
  await createUser(t.db, { id: 'alice', roles: handler });
  await createUser(t.db, { id: 'bob', roles: handler });
  await insertTestRequest(t.db, { scope: '/', requestNumber: 'ACM251122QXT42' });
  const future = new Date(Date.now() + 86_400_000);
  await t.db
    .insertInto('tasks')
    .values([
      {
        type: 'issueRequest',
        subject: 'Jane Citizen',
        request_number: 'ACM251122QXT42',
        scope: '/',
        assigned_to: 'alice',
        due_at: future,
      },
      {
        type: 'classifyIncomingMessage',
        subject: 'Unmatched mail',
        message_id: '<m1@x>',
        scope: '/',
        assigned_to: 'alice',
        due_at: new Date(Date.now() - 1000),
      },
      {
        type: 'followUp',
        subject: 'Done',
        scope: '/',
        assigned_to: 'alice',
        due_at: future,
        completed_at: new Date(),
      },
      { type: 'payInvoice', subject: 'Bob task', scope: '/', assigned_to: 'bob', due_at: future },
    ])
    .execute();
});
afterAll(() => t.close());

describe('GET /tasks/assigned', () => {
  it("lists only the user's own open tasks, soonest due first, with overdue marked", async () => {
    const cookie = await signIn(t.app, 'alice');
    const res = await t.app.inject({ url: '/tasks/assigned', headers: { ...XHR, cookie } });
    const tasks = res.json().tasks;
    expect(tasks.map((x: { subject: string }) => x.subject)).toEqual(['Unmatched mail', 'Jane Citizen']);
    expect(tasks[0]).toMatchObject({
      $type: 'workflowTask',
      isOverdue: true,
      messageId: '<m1@x>',
      isAssignedTo: 'alice',
    });
    expect(tasks[1]).toMatchObject({ isOverdue: false, requestNumber: 'ACM251122QXT42' });
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ url: '/tasks/assigned', headers: XHR })).statusCode).toBe(401);
  });
});
