import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import {
  deliverWebhook,
  pruneWebhookLog,
  publishWebhookEvent,
  WEBHOOK_QUEUE,
} from '../src/features/webhooks/service.js';
import { verifyDelivery } from '../src/features/webhooks/signature.js';
import { checkWebhookUrl, isForbiddenAddress } from '../src/http/ssrf.js';
import { JobQueue } from '../src/jobs/queue.js';
import { createTestContext, createUser, signIn, type TestContext, until, XHR } from './helpers.js';
import { addWebhookEntry, startWebhookReceiver, type WebhookReceiver } from './support/webhookReceiver.js';

// Signed webhook deliveries to a real https receiver on loopback (allowed here by the test-only
// setting), retried through the job queue, every attempt logged, the log pruned, and the SSRF guard
// at send time.

let t: TestContext;
let jobs: JobQueue;
let receiver: WebhookReceiver;
let publicKey = '';

const deliveryOf = (entryId: string) =>
  t.db.selectFrom('webhook_deliveries').selectAll().where('entry_id', '=', entryId).executeTakeFirst();
const attemptsOf = (deliveryId: string) =>
  t.db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('id')
    .execute();

function publish(type: 'requestClosed' | 'invoicePaid' | 'requestIssued', scopePath: string) {
  return t.db
    .transaction()
    .execute((trx) =>
      publishWebhookEvent(trx, jobs, { type, scopePath, data: { requestNumber: 'ACM251122NNN07' } }),
    );
}

/** Waits until the entry's delivery has failed for good; answers it. */
async function failedDelivery(entryId: string) {
  await until(async () => (await deliveryOf(entryId))?.status === 'failed');
  const delivery = await deliveryOf(entryId);
  expect(delivery?.status).toBe('failed');
  return delivery as NonNullable<typeof delivery>;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver({ failFirst: 1 });
  t = await createTestContext();
  jobs = await JobQueue.start(t.url, { warn: () => undefined });
  const settings = { allowLoopback: true, ca: receiver.ca, timeoutMs: 5000 };
  await jobs.work<{ deliveryId: string }>({
    name: WEBHOOK_QUEUE,
    retryLimit: 3,
    retryDelaySeconds: 1,
    handler: (data) => deliverWebhook(t.db, settings, data.deliveryId),
  });
  publicKey = await addWebhookEntry(t.db, {
    configurationId: 'root',
    scopePath: '/',
    entryId: 'receiver',
    url: receiver.url,
  });
  await addWebhookEntry(t.db, {
    configurationId: 'internal',
    scopePath: '/org/internal/',
    entryId: 'metadata',
    url: 'https://169.254.169.254/latest',
  });
  // Entries saved before the rules existed (written straight into the database): the address
  // reaches the receiver, but the URL itself is not allowed, so nothing is ever sent to it.
  const reachable = new URL(receiver.url);
  await addWebhookEntry(t.db, {
    configurationId: 'legacyHttp',
    scopePath: '/org/legacyhttp/',
    entryId: 'plainHttp',
    url: `http://${reachable.host}${reachable.pathname}`,
  });
  await addWebhookEntry(t.db, {
    configurationId: 'legacyCredentials',
    scopePath: '/org/legacycredentials/',
    entryId: 'withCredentials',
    url: `https://partner:secret@${reachable.host}${reachable.pathname}`,
  });
});

afterAll(async () => {
  await jobs.stop();
  await t.close();
  await receiver.close();
});

describe('webhooks', () => {
  it('delivers a signed event, retrying after the receiver first answers 500', async () => {
    await publish('requestClosed', '/org/acme/');
    await until(() => receiver.received.length > 0);
    expect(receiver.received).toHaveLength(1);
    const [received] = receiver.received;
    assert(received);
    const { body, signature } = received;
    expect(JSON.parse(body)).toMatchObject({
      event: 'requestClosed',
      scopePath: '/org/acme/',
      data: { requestNumber: 'ACM251122NNN07' },
    });
    expect(verifyDelivery(publicKey, body, signature)).toBe(true);
    expect(verifyDelivery(publicKey, `${body} `, signature)).toBe(false);
    expect(verifyDelivery(publicKey, body, signature, Date.now() + 3_600_000)).toBe(false);
    // The receiver has the body before the sender records its answer.
    await until(async () => (await deliveryOf('receiver'))?.status === 'delivered');
    const delivery = await deliveryOf('receiver');
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, response_status: 204 });
  });

  it('keeps every attempt with its answer, not only the last', async () => {
    const delivery = await deliveryOf('receiver');
    const attempts = await attemptsOf(String(delivery?.id));
    expect(attempts).toMatchObject([
      {
        attempt: 1,
        response_status: 500,
        response_excerpt: 'not now',
        error: 'The receiver answered 500.',
      },
      { attempt: 2, response_status: 204, response_excerpt: '', error: null },
    ]);
    for (const attempt of attempts) {
      expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
      expect(attempt.attempted_at.getTime()).toBeLessThanOrEqual(Date.now());
    }
    expect(attempts[0]!.attempted_at.getTime()).toBeLessThan(attempts[1]!.attempted_at.getTime());
  });

  it('never connects to a metadata or private address, and records why', async () => {
    await publish('invoicePaid', '/org/internal/');
    const delivery = await failedDelivery('metadata');
    expect(delivery.error).toBe('The URL points to a forbidden address.');
    expect(await attemptsOf(delivery.id)).toMatchObject([
      { attempt: 1, response_status: null, error: 'The URL points to a forbidden address.' },
    ]);
  });

  it.each([
    ['plainHttp', '/org/legacyhttp/', 'Only https URLs are allowed.'],
    ['withCredentials', '/org/legacycredentials/', 'The URL must not carry credentials.'],
  ])('refuses at send time an entry %s saved before the rule', async (entryId, scopePath, reason) => {
    await publish('requestIssued', scopePath);
    const delivery = await failedDelivery(entryId);
    expect(delivery).toMatchObject({ error: reason, attempts: 1, response_status: null });
    expect(await attemptsOf(delivery.id)).toMatchObject([{ attempt: 1, error: reason }]);
    // The receiver got the event through the root entry only: this one never reached it,
    // although its address was right there.
    await until(() => receiver.received.some((d) => JSON.parse(d.body).event === 'requestIssued'));
    expect(receiver.received.map((d) => JSON.parse(d.body).id)).not.toContain(delivery.id);
  });

  it('sends nothing for a change that rolled back', async () => {
    const before = await t.db.selectFrom('webhook_deliveries').select('id').execute();
    await expect(
      t.db.transaction().execute(async (trx) => {
        await publishWebhookEvent(trx, jobs, { type: 'requestIssued', scopePath: '/', data: {} });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await t.db.selectFrom('webhook_deliveries').select('id').execute()).toHaveLength(before.length);
  });
});

describe('the SSRF guard', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['::1', true],
    ['fd00:ec2::254', true],
    ['fe80::1', true],
    ['::ffff:10.0.0.1', true],
    ['0.0.0.0', true],
    ['93.184.216.34', false],
    ['2606:4700::1111', false],
  ])('judges %s forbidden: %s', (address, forbidden) => expect(isForbiddenAddress(address)).toBe(forbidden));

  it('allows loopback only when told to', () => {
    expect(isForbiddenAddress('127.0.0.1', true)).toBe(false);
    expect(isForbiddenAddress('10.0.0.1', true)).toBe(true);
  });

  it.each([
    ['http://example.com/hook', 'Only https URLs are allowed.'],
    ['https://user:secret@example.com/hook', 'The URL must not carry credentials.'],
    ['https://169.254.169.254/', 'The URL points to a forbidden address.'],
    ['https://[::1]/', 'The URL points to a forbidden address.'],
    ['https://localhost/hook', 'The URL resolves to a forbidden address.'],
    ['not a url', 'Not a valid URL.'],
  ])('refuses %s when saved', async (value, reason) => expect(await checkWebhookUrl(value)).toBe(reason));
});

describe('the delivery log', () => {
  it('is shown with every attempt to configuration viewers of the scope only', async () => {
    await createUser(t.db, { id: 'admin1', roles: [{ role: 'c:roles:admin', scope: '/' }] });
    await createUser(t.db, { id: 'acmeadmin', roles: [{ role: 'c:roles:admin', scope: '/org/acme/' }] });
    await createUser(t.db, { id: 'plain', roles: [{ role: 'c:roles:submitter', scope: '/' }] });
    const path = '/admin/configuration/edit/root/receiver/deliveries';
    const admin = await t.app.inject({
      url: path,
      headers: { ...XHR, cookie: await signIn(t.app, 'admin1') },
    });
    expect(admin.statusCode).toBe(200);
    const closed = admin
      .json()
      .deliveries.find((d: { eventType: string }) => d.eventType === 'requestClosed');
    expect(closed).toMatchObject({
      eventType: 'requestClosed',
      status: 'delivered',
      attempts: 2,
      responseStatus: 204,
      attemptLog: [
        { attempt: 1, responseStatus: 500, responseExcerpt: 'not now', error: 'The receiver answered 500.' },
        { attempt: 2, responseStatus: 204, error: null },
      ],
    });
    expect(closed.attemptLog[0].durationMs).toEqual(expect.any(Number));
    expect(Date.parse(closed.attemptLog[1].attemptedAt)).not.toBeNaN();
    const other = await t.app.inject({
      url: path,
      headers: { ...XHR, cookie: await signIn(t.app, 'acmeadmin') },
    });
    expect(other.statusCode).toBe(403);
    const plain = await t.app.inject({
      url: path,
      headers: { ...XHR, cookie: await signIn(t.app, 'plain') },
    });
    expect(plain.statusCode).toBe(403);
  });

  it('keeps 30 days: older deliveries go with their attempts, newer ones stay', async () => {
    const day = 86_400_000;
    const insert = async (ageDays: number) => {
      const { id } = await t.db
        .insertInto('webhook_deliveries')
        .values({
          configuration_id: 'root',
          entry_id: 'receiver',
          event_type: 'requestIssued',
          url: receiver.url,
          payload: '{}',
          status: 'delivered',
          attempts: 1,
          created_at: new Date(Date.now() - ageDays * day),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.db
        .insertInto('webhook_delivery_attempts')
        .values({ delivery_id: id, attempt: 1, attempted_at: new Date(Date.now() - ageDays * day) })
        .execute();
      return id;
    };
    const old = await insert(31);
    const recent = await insert(29);
    expect(await pruneWebhookLog(t.db)).toBe(1);
    expect(await t.db.selectFrom('webhook_deliveries').select('id').where('id', '=', old).execute()).toEqual(
      [],
    );
    expect(await attemptsOf(old)).toEqual([]);
    expect(
      await t.db.selectFrom('webhook_deliveries').select('id').where('id', '=', recent).execute(),
    ).toHaveLength(1);
    expect(await attemptsOf(recent)).toHaveLength(1);
  });
});
