import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, type TestContext } from './helpers.js';
import { createInboxPeople, mail, receiveInto } from './support/mail.js';
import { insertTestRequest } from './support/requests.js';
import { get, PDF, post } from './support/resultsInvoices.js';
import { train } from './support/workflow.js';

// Mail that arrives for a closed request (the inbox): linked to it, and a task and a notification
// for its last handler; linking by hand leaves the request closed.

let t: TestContext;
let handler: string;
let acmeHandler: string;

const receive = (raw: Buffer, receivedAt?: Date) => receiveInto(t, raw, receivedAt);

beforeAll(async () => {
  t = await createTestContext();
  ({ handler, acmeHandler } = await createInboxPeople(t));
});
afterAll(() => t.close());

describe('mail for a closed request', () => {
  const RECIPIENT = 'records@northside.example';

  async function closedRequest(closedBy: string) {
    return insertTestRequest(t.db, {
      scope: '/org/acme/',
      status: 'closed',
      closedAt: new Date(),
      closedBy,
      submittedBy: 'submitter',
    });
  }
  const classifyTasks = (messageId: string) =>
    t.db
      .selectFrom('tasks')
      .select(['type', 'assigned_to', 'completed_at', 'notice', 'scope', 'request_number'])
      .where('message_id', '=', messageId)
      .execute();
  const notificationsOf = (userId: string) =>
    t.db
      .selectFrom('notifications')
      .select(['type', 'target', 'text'])
      .where('user_id', '=', userId)
      .where('type', '=', 'closedRequestMessage')
      .execute();

  beforeAll(async () => {
    // Two Acme handlers who may take inbox tasks: the usual assignment would pick acmehandler
    // (the same load, the first id), so the task reaching the closer is the last-handler rule.
    await createUser(t.db, {
      id: 'zcloser',
      scope: '/org/acme/',
      roles: [{ role: 'c:roles:handler', scope: '/org/acme/' }],
    });
    await train(t.db, 'zcloser');
    await train(t.db, 'acmehandler');
  });

  it('links a reply to the closed request and gives its last handler a task and a notification', async () => {
    const n = await closedRequest('zcloser');
    const received = await receive(
      mail({ From: `Records <${RECIPIENT}>`, Subject: `Re: Request ${n}` }, 'One more page.'),
    );
    expect(received.linkedTo).toEqual([n]);
    const request = await t.db
      .selectFrom('requests')
      .select('status')
      .where('request_number', '=', n)
      .executeTakeFirstOrThrow();
    expect(request.status).toBe('closed');
    expect(await classifyTasks(received.id)).toEqual([
      {
        type: 'classifyIncomingMessage',
        assigned_to: 'zcloser',
        completed_at: null,
        notice: expect.stringContaining(`closed request ${n}`),
        scope: '/org/acme/',
        request_number: null,
      },
    ]);
    expect(await notificationsOf('zcloser')).toEqual([
      {
        type: 'closedRequestMessage',
        target: `/inbox/messages/${received.id}`,
        text: expect.stringContaining(n),
      },
    ]);
    // Acme's staff see the task on the message and on their dashboard.
    const view = (await get(t, acmeHandler, `/inbox/messages/${received.id}`)).json();
    expect(view.message.requestNumbers).toEqual([n]);
    expect(view.tasks).toHaveLength(1);
  });

  it('gives the task as usual when the last handler may not take it, and still tells them', async () => {
    // The root handler closed it but is trained for nothing: the assignment rules decide.
    const n = await closedRequest('handler');
    const received = await receive(
      mail({ From: `Records <${RECIPIENT}>`, Subject: `Re: Request ${n}` }, 'And another.'),
    );
    const [task] = await classifyTasks(received.id);
    expect(task).toMatchObject({ type: 'classifyIncomingMessage', assigned_to: 'acmehandler' });
    expect(await notificationsOf('handler')).toHaveLength(1);
    expect((await notificationsOf('acmehandler')).map((x) => x.target)).toContain(
      `/inbox/messages/${received.id}`,
    );
  });

  it('lets a person link a message to a closed request by hand; the request stays closed', async () => {
    const n = await closedRequest('zcloser');
    const { id } = await receive(
      mail({ From: 'someone@elsewhere.example', Subject: 'Late papers' }, 'Found these.', {
        name: 'late.pdf',
        type: 'application/pdf',
        bytes: PDF,
      }),
    );
    // Not linked yet, the message is the inbox's: staff at the root link it.
    expect((await get(t, handler, `/inbox/messages/${id}/actions/link/${n}`)).json().canLink).toBe(true);
    const link = (body: unknown) => post(t, handler, `/inbox/messages/${id}/actions/link`, body);
    // A result or an invoice would start work a closed request has none for.
    const result = await link({
      requestNumber: n,
      attachments: [{ classification: 'result', resultTags: { documentType: 'Medical records' } }],
    });
    expect(result.statusCode).toBe(400);
    expect(result.json().fields['attachments.0.classification']).toMatch(/closed/);
    const ok = await link({ requestNumber: n, attachments: [{ classification: 'attachment' }] });
    expect(ok.statusCode, ok.body).toBe(200);
    const request = await t.db
      .selectFrom('requests')
      .select('status')
      .where('request_number', '=', n)
      .executeTakeFirstOrThrow();
    expect(request.status).toBe('closed');
    const page = (await get(t, acmeHandler, `/requests/${n}`)).json();
    expect(page.correspondence[0]).toMatchObject({ kind: 'message', subject: 'Late papers' });
    // The person who linked it has dealt with it: the inbox task is done.
    expect((await classifyTasks(id)).every((x) => x.completed_at !== null)).toBe(true);
  });
});
