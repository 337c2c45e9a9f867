import { TRAINABLE_TASK_TYPES } from '@dossier/core';
import { afterAll, assert, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { WorkflowEngine } from '../src/features/workflow/engine.js';
import { sendAutoReminder } from '../src/features/workflow/reminders.js';
import { enqueueMail } from '../src/mail/outbox.js';
import { createSmtpTransport, MAX_ATTEMPTS, type MailTransport, sendDueMail } from '../src/mail/sender.js';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { type CaptureSmtp, startCaptureSmtp } from './support/smtp.js';
import { backdatePending, listenAs, mailAbout, setScopeEntry, tasksOf, train } from './support/workflow.js';

// A mail about a request that fails for good gives the request an exception task, whichever mail it
// was (an issued request, an autoReminder, a result delivery, a workflow mail): refused by the
// addressee's server (5xx, at once) or undeliverable after every retry. Mail about no request only
// stays failed in the outbox. Driven from the failure through the engine to the task, its due date
// (Christmas holidays in between), assignee, live push and history.

let t: TestContext;
let engine: WorkflowEngine;
let smtp: CaptureSmtp;
let transport: MailTransport;
let pushed: Record<string, unknown>[];
const FROM = 'Dossier <no-reply@dossier.test>';
/** Thursday 24 December 2026, 10:00 in Sydney; one business day later is Tuesday 29, 10:00. */
const CHRISTMAS_EVE = new Date('2026-12-23T23:00:00Z');
const ONE_DAY_LATER = '2026-12-28T23:00:00.000Z';

beforeAll(async () => {
  t = await createTestContext();
  await seedConfiguration(t.db, { demo: true });
  await createUser(t.db, { id: 'hana', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, {
    id: 'nobody',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  // The sender's address is one its mail server refuses.
  await t.db.updateTable('users').set({ email: 'nobody@acme.example' }).where('id', '=', 'nobody').execute();
  await train(t.db, 'hana', TRAINABLE_TASK_TYPES);
  smtp = await startCaptureSmtp();
  transport = createSmtpTransport(smtp.url);
  pushed = listenAs(t.live, 'hana');
  engine = new WorkflowEngine(t.db, { live: t.live, log: { warn: () => undefined }, config: t.config });
});
afterAll(async () => {
  await engine.stop();
  transport.close();
  await smtp.close();
  await t.close();
});
beforeEach(async () => {
  // Mail left by another test must not be sent (or fail) in this one.
  await t.db.updateTable('mail_outbox').set({ sent_at: new Date() }).where('sent_at', 'is', null).execute();
  pushed.length = 0;
});

async function settle() {
  await engine.drain();
  await new Promise((r) => setTimeout(r, 150));
}

const newRequest = (recipientEmail = 'records@northside.example') =>
  insertTestRequest(t.db, {
    scope: '/org/acme/',
    prefix: 'ACM',
    status: 'open',
    issuedAt: new Date('2026-03-02T00:00:00Z'),
    submittedBy: 'nobody',
    recipient: { email: recipientEmail },
  });
const exceptions = async (n: string) => (await tasksOf(t.db, n)).filter((x) => x.type === 'exception');
const history = async (n: string) =>
  (
    await t.db
      .selectFrom('events')
      .select(['type', 'payload'])
      .where('aggregate_id', '=', n)
      .orderBy('id')
      .execute()
  ).map((e) => `${e.type}: ${(e.payload as { summary?: string }).summary}`);

/** An overdue followUp and today's autoReminder for it, queued in the outbox. */
async function queueAutoReminder(n: string) {
  const { id } = await t.db
    .insertInto('tasks')
    .values({
      type: 'followUp',
      subject: 'Follow Up: Jane Citizen',
      request_number: n,
      scope: '/org/acme/',
      triggered_at: new Date('2026-03-02T00:00:00Z'),
      due_at: new Date('2026-03-16T00:00:00Z'),
      assigned_to: 'hana',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const sent = await t.db.transaction().execute((trx) => sendAutoReminder(trx, id, new Date(), t.config));
  expect(sent).toBe(true);
}

describe('a mail about a request failed for good -> exception', () => {
  it('an autoReminder refused by the recipient’s server: one business day across the holidays, assigned, pushed', async () => {
    const n = await newRequest('nobody@northside.example');
    await queueAutoReminder(n);
    const [reminder] = await mailAbout(t.db, n);
    assert(reminder);
    expect(reminder).toMatchObject({ to: 'nobody@northside.example', request_number: n });
    await sendDueMail(t.db, transport, FROM);
    expect((await mailAbout(t.db, n))[0]?.failed_at).not.toBeNull();
    await backdatePending(t.db, n, CHRISTMAS_EVE);
    await settle();
    const [task, ...rest] = await exceptions(n);
    expect(rest).toEqual([]);
    expect(task).toMatchObject({ assigned_to: 'hana', workflow_key: `exception:mail:${reminder.id}` });
    expect(task?.notice).toContain(
      `The mail "${reminder.subject}" could not be delivered to nobody@northside.example`,
    );
    expect(task?.due_at?.toISOString()).toBe(ONE_DAY_LATER);
    expect(pushed.some((m) => m.$type === 'workflowTask' && m.taskId === task?.id)).toBe(true);
    expect(await history(n)).toContain(
      `request.mailDeliveryFailed: The mail "${reminder.subject}" could not be delivered to nobody@northside.example.`,
    );
  });

  it('a workflow mail (requestClosed to the sender) refused: the closed request still gets its exception', async () => {
    await setScopeEntry(t.db, '/org/acme/', 'requestSettings', { notifyRequestSenderWhenClosed: true });
    const hana = caller(t.app, await signIn(t.app, 'hana'));
    const n = await newRequest();
    const closed = await hana.post(`/requests/${n}/actions/closeRequest`, {
      tags: { closeReason: 'Completed' },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    await settle();
    const [mail] = await mailAbout(t.db, n);
    expect(mail).toMatchObject({ to: 'nobody@acme.example', subject: `Request ${n} closed` });
    await sendDueMail(t.db, transport, FROM);
    await settle();
    const [task] = await exceptions(n);
    expect(task).toMatchObject({ assigned_to: 'hana', completed_at: null });
    expect(task?.notice).toContain('nobody@acme.example');
    await setScopeEntry(t.db, '/org/acme/', 'requestSettings', { notifyRequestSenderWhenClosed: false });
  });

  it('a result delivery undeliverable after every retry; a second failure while it is open adds none', async () => {
    const n = await newRequest();
    const unreachable: MailTransport = {
      send: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
      },
      close: () => undefined,
    };
    for (const subject of ['A result is ready', 'Another result is ready'])
      await t.db
        .transaction()
        .execute((trx) =>
          enqueueMail(trx, { to: 'results@acme.example', subject, text: 'x', requestNumber: n }),
        );
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await sendDueMail(t.db, unreachable, FROM);
      await settle();
      // Before the last attempt nothing has failed for good.
      if (attempt < MAX_ATTEMPTS) expect(await exceptions(n)).toEqual([]);
      await t.db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: new Date() })
        .where('request_number', '=', n)
        .execute();
    }
    const mails = await mailAbout(t.db, n);
    expect(mails.map((m) => [m.attempts, m.failed_at !== null])).toEqual([
      [MAX_ATTEMPTS, true],
      [MAX_ATTEMPTS, true],
    ]);
    const [task, ...more] = await exceptions(n);
    expect(more).toEqual([]);
    expect(task?.notice).toContain('ECONNREFUSED');
    // Both failures are in the history.
    expect((await history(n)).filter((e) => e.startsWith('request.mailDeliveryFailed'))).toHaveLength(2);
  });

  it('a mail about no request just stays failed in the outbox', async () => {
    const before = await t.db
      .selectFrom('events')
      .select('id')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const tasksBefore = await t.db.selectFrom('tasks').select('id').execute();
    const id = await t.db.transaction().execute((trx) =>
      enqueueMail(trx, {
        to: 'nobody@elsewhere.example',
        subject: 'Reset your password',
        text: 'x',
      }),
    );
    await sendDueMail(t.db, transport, FROM);
    await settle();
    const row = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.failed_at).not.toBeNull();
    expect(row.last_error).toContain('550');
    const after = await t.db
      .selectFrom('events')
      .select('type')
      .where('id', '>', before?.id ?? '0')
      .execute();
    expect(after.map((e) => e.type)).not.toContain('request.mailDeliveryFailed');
    expect(await t.db.selectFrom('tasks').select('id').execute()).toHaveLength(tasksBefore.length);
  });
});
