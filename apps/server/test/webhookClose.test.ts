import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { deliverWebhook, WEBHOOK_QUEUE } from '../src/features/webhooks/service.js';
import { SIGNATURE_HEADER, verifyDelivery } from '../src/features/webhooks/signature.js';
import { JobQueue } from '../src/jobs/queue.js';
import { createTestContext, createUser, signIn, type TestContext, until, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// Issue 8's webhook promise end to end: a handler closes a request through the real route, the
// delivery is queued in that transaction, the job queue posts it to a receiver started here, which
// first answers 500, then gets it again and verifies the signature with the entry's public key.

let t: TestContext;
let app: FastifyInstance;
let jobs: JobQueue;
let receiver: https.Server;
const received: { body: string; signature: string; event: string }[] = [];
let answered500 = 0;
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKey = keys.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString();

function selfSignedCertificate() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dossier-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const tls = {
    key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
  };
  fs.rmSync(dir, { recursive: true, force: true });
  return tls;
}

beforeAll(async () => {
  const tls = selfSignedCertificate();
  receiver = https.createServer(tls, (request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      if (answered500 === 0) {
        answered500++;
        response.writeHead(500).end('not now');
        return;
      }
      received.push({
        body,
        signature: String(request.headers[SIGNATURE_HEADER]),
        event: String(request.headers['dossier-event']),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  t = await createTestContext();
  jobs = await JobQueue.start(t.url, { warn: () => undefined });
  await jobs.work<{ deliveryId: string }>({
    name: WEBHOOK_QUEUE,
    retryLimit: 3,
    retryDelaySeconds: 1,
    handler: (data) =>
      deliverWebhook(t.db, { allowLoopback: true, ca: tls.cert, timeoutMs: 5000 }, data.deliveryId),
  });
  // The app of this test sends jobs: the close action queues its delivery in its transaction.
  app = await buildApp({ config: t.config, db: t.db, live: t.live, jobs });
  await app.ready();

  await t.db
    .insertInto('configurations')
    .values({ id: 'acme', scope_path: '/org/acme/', name: 'Acme' })
    .execute();
  await t.db
    .insertInto('configuration_entries')
    .values({
      configuration_id: 'acme',
      id: 'partnerHook',
      parent_id: 'c',
      type: 'apiWebhookEntry',
      name: 'Partner',
      data: JSON.stringify({ url, publicKey }),
    })
    .execute();
  await t.db
    .insertInto('configuration_secrets')
    .values({
      configuration_id: 'acme',
      entry_id: 'partnerHook',
      private_key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    })
    .execute();
  invalidateConfigurationCache(t.db);
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
});

afterAll(async () => {
  await app.close();
  await jobs.stop();
  await t.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
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

    await until(() => received.length > 0, 30_000);
    expect(answered500).toBe(1);
    expect(received).toHaveLength(1);
    const [delivery] = received;
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
