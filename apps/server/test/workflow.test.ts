import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { insertCorrespondence } from '../src/features/correspondence/repository.js';
import { WorkflowEngine } from '../src/features/workflow/engine.js';
import { sendAutoReminder, sweepReminders } from '../src/features/workflow/reminders.js';
import type { WorkflowRule } from '../src/features/workflow/rule.js';
import { enqueueMail } from '../src/mail/outbox.js';
import { sendDueMail } from '../src/mail/sender.js';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { configureScope, insertEvent, listenAs, tasksOf, train } from './support/workflow.js';

// Each workflow rule driven from its event to its task: type, due date (business days with the
// scope's public holidays), assignee and the live push; and the engine's guarantees (each event
// once with two engines; a rule that keeps failing leaves an exception task).

let t: TestContext;
let engine: WorkflowEngine;
let pushed: Record<string, unknown>[];
const log = { warn: () => undefined };

beforeAll(async () => {
  t = await createTestContext();
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
  await createUser(t.db, { id: 'alice', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  // Trained but inactive, and trained but unable to handle Acme's requests: never candidates.
  await createUser(t.db, { id: 'bob', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, { id: 'carol', roles: [{ role: 'c:roles:handler', scope: '/org/globex/' }] });
  await train(t.db, 'alice');
  await train(t.db, 'bob', undefined, false);
  await train(t.db, 'carol');
  pushed = listenAs(t.live, 'alice');
  engine = new WorkflowEngine(t.db, { live: t.live, log, config: t.config });
});
afterAll(async () => {
  await engine.stop();
  await t.close();
});
beforeEach(() => {
  pushed.length = 0;
});

const acme = (input: Parameters<typeof insertTestRequest>[1] = { scope: '/org/acme/' }) =>
  insertTestRequest(t.db, { prefix: 'ACM', ...input });

async function settle() {
  await engine.drain();
  // Pushes are NOTIFYs delivered after commit through the hub's listening connection.
  await new Promise((r) => setTimeout(r, 150));
}

const pushedTask = (taskId: string) =>
  pushed.filter((m) => m.$type === 'workflowTask' && m.taskId === taskId) as { dueAt: string | null }[];

describe('submitted -> issueRequest', () => {
  it('adds the task due after two business days skipping the Christmas holidays, assigned and pushed', async () => {
    const n = await acme();
    // Thursday 24 December 2026, 10:00 in Sydney. Friday 25 and Monday 28 are public holidays.
    await insertEvent(t.db, {
      type: 'request.submitted',
      requestNumber: n,
      at: new Date('2026-12-23T23:00:00Z'),
    });
    await settle();
    const [task] = await tasksOf(t.db, n);
    expect(task).toMatchObject({ type: 'issueRequest', assigned_to: 'alice', due_fixed: false });
    expect(task?.subject).toBe('Issue Request: Jane Citizen');
    // Tuesday 29 is the first business day, Wednesday 30 the second; the clock time stays.
    expect(task?.due_at?.toISOString()).toBe('2026-12-29T23:00:00.000Z');
    expect(pushedTask(task!.id)).toHaveLength(1);
  });

  it('adds nothing when the request settings disable workflow tasks', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/quiet/', prefix: 'QUI' });
    await insertEvent(t.db, { type: 'request.submitted', requestNumber: n });
    await settle();
    expect(await tasksOf(t.db, n)).toEqual([]);
  });

  it('reacts to each event once, however often the engine runs', async () => {
    const n = await acme();
    await insertEvent(t.db, { type: 'request.submitted', requestNumber: n });
    await settle();
    await settle();
    expect(await tasksOf(t.db, n)).toHaveLength(1);
    const pending = await t.db
      .selectFrom('events')
      .select('id')
      .where('workflow_pending', '=', true)
      .execute();
    expect(pending).toEqual([]);
  });
});

describe('issued -> followUp (and confirmIssuedRequest for fax and post)', () => {
  it('adds both for a posted request and drops the completed issueRequest from the assignee list', async () => {
    const handler = caller(t.app, await signIn(t.app, 'alice'));
    const n = await acme();
    await insertEvent(t.db, { type: 'request.submitted', requestNumber: n });
    await settle();
    const [issue] = await tasksOf(t.db, n);
    pushed.length = 0;
    const res = await handler.post(`/requests/${n}/actions/issueRequest`, {
      issueRequestMethod: 'postal',
      subject: 'Records request',
      body: {
        type: 'doc',
        content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Please send.' }] }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await settle();
    const tasks = await tasksOf(t.db, n);
    expect(tasks.map((x) => [x.type, x.completed_at === null, x.assigned_to])).toEqual([
      ['issueRequest', false, 'alice'],
      ['followUp', true, 'alice'],
      ['confirmIssuedRequest', true, 'alice'],
    ]);
    // The completed issueRequest was pushed without a due date: the overlay drops it.
    expect(pushedTask(issue!.id).at(-1)?.dueAt).toBeNull();
  });

  it('adds only a followUp for an emailed request', async () => {
    const n = await acme({ scope: '/org/acme/', status: 'open', issuedAt: new Date() });
    await t.db
      .updateTable('requests')
      .set({ issue_method: 'email' })
      .where('request_number', '=', n)
      .execute();
    await insertEvent(t.db, { type: 'request.issued', requestNumber: n, actor: 'alice' });
    await settle();
    expect((await tasksOf(t.db, n)).map((x) => x.type)).toEqual(['followUp']);
  });
});

async function insertResult(n: string, skipped = false) {
  const row = await t.db
    .insertInto('request_results')
    .values({
      request_number: n,
      file_key: `result-${n}`,
      created_by: 'alice',
      quality_assurance_skipped: skipped,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('result added -> qualityAssureResult; QA done -> completed', () => {
  it('adds the task for the result and completes it when the result is quality assured', async () => {
    const n = await acme({ scope: '/org/acme/', status: 'open' });
    const resultId = await insertResult(n);
    await insertEvent(t.db, { type: 'request.resultAdded', requestNumber: n, payload: { resultId } });
    await settle();
    const [qa] = await tasksOf(t.db, n);
    expect(qa).toMatchObject({
      type: 'qualityAssureResult',
      workflow_key: `qualityAssureResult:result:${resultId}`,
    });
    await insertEvent(t.db, {
      type: 'request.resultQualityAssured',
      requestNumber: n,
      actor: 'alice',
      payload: { resultId },
    });
    await settle();
    const [done] = await tasksOf(t.db, n);
    expect(done?.completed_at).not.toBeNull();
    expect(done?.completed_by).toBe('alice');
    expect(done?.was_overdue).toBe(false);
    expect(pushedTask(qa!.id).at(-1)?.dueAt).toBeNull();
  });

  it('adds nothing when quality assurance is skipped for the result', async () => {
    const n = await acme({ scope: '/org/acme/', status: 'open' });
    const resultId = await insertResult(n, true);
    await insertEvent(t.db, { type: 'request.resultAdded', requestNumber: n, payload: { resultId } });
    await settle();
    expect(await tasksOf(t.db, n)).toEqual([]);
  });
});

describe('invoice added -> payInvoice; paid -> completed', () => {
  it('adds and completes the task of the invoice', async () => {
    const n = await acme({ scope: '/org/acme/', status: 'open' });
    const { id: invoiceId } = await t.db
      .insertInto('request_invoices')
      .values({ request_number: n, file_key: `invoice-${n}`, created_by: 'alice' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertEvent(t.db, { type: 'request.invoiceAdded', requestNumber: n, payload: { invoiceId } });
    await settle();
    expect((await tasksOf(t.db, n)).map((x) => [x.type, x.assigned_to])).toEqual([['payInvoice', 'alice']]);
    await insertEvent(t.db, {
      type: 'request.invoicePaid',
      requestNumber: n,
      actor: 'bob',
      payload: { invoiceId },
    });
    await settle();
    const [task] = await tasksOf(t.db, n);
    expect(task?.completed_by).toBe('bob');
  });
});

describe('appointment -> appointmentReminder one business day before', () => {
  async function addAppointment(n: string, dueAt: Date) {
    const { id } = await t.db
      .insertInto('tasks')
      .values({
        type: 'appointment',
        subject: 'Appointment: Jane Citizen',
        request_number: n,
        scope: '/org/acme/',
        due_at: dueAt,
        due_fixed: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  it('raises the reminder on the business day before, due when the appointment is', async () => {
    const n = await acme({ scope: '/org/acme/', status: 'open' });
    // An appointment on Tuesday 29 December 2026, 10:00 in Sydney; the business day before is
    // Thursday 24 (Friday 25 and Monday 28 are holidays).
    const appointmentAt = new Date('2026-12-28T23:00:00Z');
    const taskId = await addAppointment(n, appointmentAt);
    await insertEvent(t.db, {
      type: 'request.taskAdded',
      requestNumber: n,
      payload: { taskId, type: 'appointment' },
    });
    await settle();
    // Added long before: no reminder yet.
    expect((await tasksOf(t.db, n)).map((x) => x.type)).toEqual(['appointment']);
    // Wednesday 23 December, 15:00 in Sydney: still too early.
    await sweepReminders(t.db, { live: t.live, config: t.config }, new Date('2026-12-23T04:00:00Z'));
    expect(await tasksOf(t.db, n)).toHaveLength(1);
    // Thursday 24 December, 09:00 in Sydney.
    const result = await sweepReminders(
      t.db,
      { live: t.live, config: t.config },
      new Date('2026-12-23T22:00:00Z'),
    );
    expect(result.appointmentReminders).toBe(1);
    const reminder = (await tasksOf(t.db, n)).find((x) => x.type === 'appointmentReminder');
    expect(reminder?.due_at?.toISOString()).toBe(appointmentAt.toISOString());
    expect(reminder?.assigned_to).toBe('alice');
    // Never twice.
    await sweepReminders(t.db, { live: t.live, config: t.config }, new Date('2026-12-24T01:00:00Z'));
    expect((await tasksOf(t.db, n)).filter((x) => x.type === 'appointmentReminder')).toHaveLength(1);
  });
});

describe('followUp overdue -> autoReminder email to the recipient', () => {
  it('mails the recipient from the template, never on consecutive days', async () => {
    const n = await acme({ scope: '/org/acme/', status: 'open', issuedAt: new Date('2026-03-02T00:00:00Z') });
    const { id } = await t.db
      .insertInto('tasks')
      .values({
        type: 'followUp',
        subject: 'Follow Up: Jane Citizen',
        request_number: n,
        scope: '/org/acme/',
        triggered_at: new Date('2026-03-02T00:00:00Z'),
        due_at: new Date('2026-03-16T00:00:00Z'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const mails = () =>
      t.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('to', '=', 'records@northside.example')
        .where('text', 'like', `%${n}%`)
        .execute();
    const at = (iso: string) =>
      t.db.transaction().execute((trx) => sendAutoReminder(trx, id, new Date(iso), t.config));
    // Not overdue yet.
    expect(await at('2026-03-15T00:00:00Z')).toBe(false);
    expect(await at('2026-03-17T00:00:00Z')).toBe(true);
    const [mail] = await mails();
    expect(mail?.text).toContain('We are still waiting for the records of request');
    expect(mail?.text).toContain('Northside Medical Centre');
    // Same day and the next day: nothing; the day after: again.
    expect(await at('2026-03-17T05:00:00Z')).toBe(false);
    expect(await at('2026-03-18T03:00:00Z')).toBe(false);
    expect(await at('2026-03-19T03:00:00Z')).toBe(true);
    expect(await mails()).toHaveLength(2);
  });
});

describe('issued request mail failed for good -> exception', () => {
  it('adds an exception task on the request when the mail server refuses the issued request', async () => {
    const n = await acme({ scope: '/org/acme/', status: 'open' });
    const outboxId = await t.db.transaction().execute((trx) =>
      enqueueMail(trx, {
        to: 'nobody@northside.example',
        subject: `Records ${n}`,
        text: 'x',
      }),
    );
    await insertCorrespondence(t.db, {
      requestNumber: n,
      kind: 'issuedRequest',
      issueRequestMethod: 'email',
      body: { type: 'text', content: 'x' },
      attachments: [],
      mailOutboxId: outboxId,
      messageDeliveryStatus: 'queued',
      createdBy: 'alice',
    });
    const refusing = {
      send: async () => {
        throw Object.assign(new Error('550 no such user'), { responseCode: 550 });
      },
      close: () => undefined,
    };
    await sendDueMail(t.db, refusing, 'dossier@test.example', 20);
    await settle();
    const [task] = await tasksOf(t.db, n);
    expect(task).toMatchObject({ type: 'exception', assigned_to: 'alice' });
    expect(task?.notice).toContain('nobody@northside.example');
  });
});

describe('closed -> open tasks completed', () => {
  it('completes every open task of the closed request', async () => {
    const handler = caller(t.app, await signIn(t.app, 'alice'));
    const n = await acme({ scope: '/org/acme/', status: 'open' });
    const add = await handler.post(`/requests/${n}/actions/addTask`, { type: 'actionDeferred' });
    expect(add.statusCode, add.body).toBe(200);
    await settle();
    expect((await tasksOf(t.db, n))[0]?.assigned_to).toBe('alice');
    const close = await handler.post(`/requests/${n}/actions/closeRequest`, {
      tags: { closeReason: 'Completed' },
    });
    expect(close.statusCode, close.body).toBe(200);
    await settle();
    const tasks = await tasksOf(t.db, n);
    expect(tasks.every((x) => x.completed_at !== null && x.completed_by === 'alice')).toBe(true);
  });
});

describe('re-opened -> a task for the work the request is back at, and the submitters told', () => {
  it('adds an assigned followUp to a re-opened issued request and issueRequest to one not issued', async () => {
    await createUser(t.db, {
      id: 'reopensam',
      scope: '/org/acme/',
      roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
    });
    const handler = caller(t.app, await signIn(t.app, 'alice'));
    const issued = await acme({
      scope: '/org/acme/',
      status: 'open',
      issuedAt: new Date(),
      submittedBy: 'reopensam',
    });
    const notIssued = await acme({ scope: '/org/acme/', status: 'submitted', submittedBy: 'reopensam' });
    for (const n of [issued, notIssued]) {
      const close = await handler.post(`/requests/${n}/actions/closeRequest`, {
        tags: { closeReason: 'Completed' },
      });
      expect(close.statusCode, close.body).toBe(200);
    }
    await settle();
    for (const n of [issued, notIssued]) {
      expect((await tasksOf(t.db, n)).every((x) => x.completed_at !== null)).toBe(true);
      const reOpen = await handler.post(`/requests/${n}/actions/reOpenRequest`, {
        tags: { reOpenReason: 'Sender query' },
        notice: 'The sender asks for the rest.',
      });
      expect(reOpen.statusCode, reOpen.body).toBe(200);
    }
    await settle();
    const open = async (n: string) => (await tasksOf(t.db, n)).filter((x) => x.completed_at === null);
    expect(await open(issued)).toEqual([
      expect.objectContaining({
        type: 'followUp',
        assigned_to: 'alice',
        notice: 'Re-opened: The sender asks for the rest.',
      }),
    ]);
    expect(await open(notIssued)).toEqual([
      expect.objectContaining({ type: 'issueRequest', assigned_to: 'alice' }),
    ]);
    // The engine runs again: still one task per re-open.
    await settle();
    expect(await open(issued)).toHaveLength(1);
    const told = await t.db
      .selectFrom('notifications')
      .select(['type', 'target'])
      .where('user_id', '=', 'reopensam')
      .where('type', '=', 'requestReOpened')
      .execute();
    expect(told.map((x) => x.target).sort()).toEqual(
      [`/requests/${issued}`, `/requests/${notIssued}`].sort(),
    );
  });
});

describe('the engine', () => {
  it('handles each event exactly once with two engines running at the same time', async () => {
    const seen: string[] = [];
    const counting: WorkflowRule = {
      name: 'counting',
      on: ['request.partEdited'],
      addsTasks: false,
      async handle({ event }) {
        seen.push(event.id);
      },
    };
    const first = new WorkflowEngine(t.db, { log, rules: [counting], config: t.config });
    const second = new WorkflowEngine(t.db, { log, rules: [counting], config: t.config });
    const n = await acme();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++)
      ids.push(await insertEvent(t.db, { type: 'request.partEdited', requestNumber: n }));
    for (let round = 0; round < 10; round++) await Promise.all([first.drain(), second.drain()]);
    expect(seen.sort()).toEqual(ids.sort());
  });

  it('gives up on an event whose rule keeps failing and leaves an exception task', async () => {
    const failing: WorkflowRule = {
      name: 'failing',
      on: ['request.submitted'],
      addsTasks: true,
      async handle() {
        throw new Error('boom');
      },
    };
    const broken = new WorkflowEngine(t.db, { log, rules: [failing], config: t.config });
    const n = await acme();
    await insertEvent(t.db, { type: 'request.submitted', requestNumber: n });
    for (let i = 0; i < 5; i++) await broken.drain();
    const [task] = await tasksOf(t.db, n);
    expect(task?.type).toBe('exception');
    expect(task?.notice).toContain('boom');
  });
});
