import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { post } from './support/resultsInvoices.js';

// A task that stands for work (issue 23 item 5): Quality Assure Result and Pay Invoice are completed
// by the work itself; completing them by hand while the result awaits QA or the invoice waits is
// refused (409) with the reason, and allowed once the work is done or discarded.

let t: TestContext;
let cookie: string;
let n: string;

async function taskFor(type: string, workflowKey: string | null) {
  const row = await t.db
    .insertInto('tasks')
    .values({
      type,
      subject: `${type}: Jane Citizen`,
      request_number: n,
      scope: '/org/acme/',
      assigned_to: 'harper',
      due_at: new Date(Date.now() + 86_400_000),
      workflow_key: workflowKey,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const complete = (taskId: string) => post(t, cookie, `/tasks/${taskId}/complete`);

async function isCompleted(taskId: string) {
  const row = await t.db
    .selectFrom('tasks')
    .select('completed_at')
    .where('id', '=', taskId)
    .executeTakeFirstOrThrow();
  return row.completed_at !== null;
}

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'harper', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  cookie = await signIn(t.app, 'harper');
  n = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'open' });
});
afterAll(() => t.close());

describe('completing a task by hand while its work is open', () => {
  it('refuses Quality Assure Result while the result awaits QA, and allows it once QA is done', async () => {
    const result = await t.db
      .insertInto('request_results')
      .values({ request_number: n, file_key: 'qa-file-key-0001' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const taskId = await taskFor('qualityAssureResult', `qualityAssureResult:result:${result.id}`);
    const refused = await complete(taskId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Quality-assure or discard the result first.');
    expect(await isCompleted(taskId)).toBe(false);
    await t.db
      .updateTable('request_results')
      .set({ quality_assured_at: new Date(), quality_assured_by: 'harper' })
      .where('id', '=', result.id)
      .execute();
    expect((await complete(taskId)).statusCode).toBe(200);
    expect(await isCompleted(taskId)).toBe(true);
  });

  it('allows Quality Assure Result once the result is discarded', async () => {
    const result = await t.db
      .insertInto('request_results')
      .values({ request_number: n, file_key: 'qa-file-key-0002', discarded_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const taskId = await taskFor('qualityAssureResult', `qualityAssureResult:result:${result.id}`);
    expect((await complete(taskId)).statusCode).toBe(200);
  });

  it('refuses Pay Invoice while the invoice waits, and allows it once paid or discarded', async () => {
    const invoices = await t.db
      .insertInto('request_invoices')
      .values([
        { request_number: n, file_key: 'invoice-key-0001', created_by: 'harper' },
        { request_number: n, file_key: 'invoice-key-0002', created_by: 'harper' },
      ] as never)
      .returning('id')
      .execute();
    const [paid, discarded] = await Promise.all(
      invoices.map((i) => taskFor('payInvoice', `payInvoice:invoice:${i.id}`)),
    );
    assert(paid && discarded);
    for (const taskId of [paid, discarded]) {
      const refused = await complete(taskId);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('Pay or discard the invoice first.');
    }
    await t.db
      .updateTable('request_invoices')
      .set({ paid_at: new Date() })
      .where('id', '=', invoices[0]!.id)
      .execute();
    await t.db
      .updateTable('request_invoices')
      .set({ discarded_at: new Date(), discarded_by: 'harper' })
      .where('id', '=', invoices[1]!.id)
      .execute();
    expect((await complete(paid)).statusCode).toBe(200);
    expect((await complete(discarded)).statusCode).toBe(200);
  });

  it('still completes a task of the same type that stands for no work (added by hand)', async () => {
    const taskId = await taskFor('qualityAssureResult', null);
    expect((await complete(taskId)).statusCode).toBe(200);
  });
});
