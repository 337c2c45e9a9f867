import type { FastifyInstance } from 'fastify';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelivery } from '../src/features/webhooks/signature.js';
import type { JobQueue } from '../src/jobs/queue.js';
import { createTestContext, createUser, signIn, type TestContext, until, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import {
  addWebhookEntry,
  startWebhookReceiver,
  type WebhookReceiver,
  workWebhooks,
} from './support/webhookReceiver.js';

// Issue 8's webhook promise end to end: a handler closes a request through the real route, the
// delivery is queued in that transaction, the job queue posts it to a receiver started here, which
// first answers 500, then gets it again and verifies the signature with the entry's public key.

let t: TestContext;
let app: FastifyInstance;
let jobs: JobQueue;
let receiver: WebhookReceiver;
let publicKey = '';

beforeAll(async () => {
  receiver = await startWebhookReceiver({ failFirst: 1 });
  t = await createTestContext();
  // The app of this test sends jobs: actions queue their deliveries in their transactions.
  ({ jobs, app } = await workWebhooks(t, receiver));
  publicKey = await addWebhookEntry(t.db, {
    configurationId: 'acme',
    scopePath: '/org/acme/',
    entryId: 'partnerHook',
    url: receiver.url,
  });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
});

afterAll(async () => {
  await app.close();
  await jobs.stop();
  await t.close();
  await receiver.close();
});

describe('closing a request', () => {
  it('delivers a signed requestClosed webhook, retried after the receiver first answers 500', async () => {
    const requestNumber = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      prefix: 'ACM',
      status: 'open',
    });
    const cookie = await signIn(app, 'handler');
    const closed = await app.inject({
      method: 'POST',
      url: `/requests/${requestNumber}/actions/closeRequest`,
      headers: { ...XHR, cookie },
      payload: { tags: { closeReason: 'Completed' }, notice: 'All records sent.' },
    });
    expect(closed.statusCode, closed.body).toBe(200);

    await until(() => receiver.received.length > 0, 30_000);
    expect(receiver.failed()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const [delivery] = receiver.received;
    assert(delivery);
    expect(delivery.event).toBe('requestClosed');
    expect(JSON.parse(delivery.body)).toMatchObject({
      event: 'requestClosed',
      scopePath: '/org/acme/',
      data: { requestNumber, notice: 'All records sent.', tags: { closeReason: 'Completed' } },
    });
    // What a receiver does with the public key shown in the editor.
    expect(verifyDelivery(publicKey, delivery.body, delivery.signature)).toBe(true);
    expect(
      verifyDelivery(publicKey, delivery.body.replace('All records', 'No records'), delivery.signature),
    ).toBe(false);

    const log = () =>
      t.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('entry_id', '=', 'partnerHook')
        .executeTakeFirstOrThrow();
    await until(async () => (await log()).status === 'delivered');
    expect(await log()).toMatchObject({
      event_type: 'requestClosed',
      status: 'delivered',
      attempts: 2,
      response_status: 204,
    });
  });
});
