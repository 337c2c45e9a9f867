import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverWebhook, publishWebhookEvent, WEBHOOK_QUEUE } from '../src/features/webhooks/service.js';
import { SIGNATURE_HEADER, verifyDelivery } from '../src/features/webhooks/signature.js';
import { checkWebhookUrl, isForbiddenAddress } from '../src/features/webhooks/ssrf.js';
import { JobQueue } from '../src/jobs/queue.js';
import { createTestContext, type TestContext, until } from './helpers.js';

// Signed webhook deliveries to a real https receiver on loopback (allowed here by the test-only
// setting), retried through the job queue, and the SSRF guard.

let t: TestContext;
let jobs: JobQueue;
let receiver: https.Server;
let url = '';
let ca = '';
const received: { body: string; signature: string }[] = [];
let failuresLeft = 1;
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
  return {
    key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    dir,
  };
}

async function addWebhook(configurationId: string, scopePath: string, entryId: string, target: string) {
  await t.db
    .insertInto('configurations')
    .values({ id: configurationId, scope_path: scopePath, name: scopePath })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await t.db
    .insertInto('configuration_entries')
    .values({
      configuration_id: configurationId,
      id: entryId,
      parent_id: 'c',
      type: 'apiWebhookEntry',
      name: entryId,
      data: JSON.stringify({ url: target, publicKey }),
    })
    .execute();
  await t.db
    .insertInto('configuration_secrets')
    .values({
      configuration_id: configurationId,
      entry_id: entryId,
      private_key: keys.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    })
    .execute();
}

beforeAll(async () => {
  const tls = selfSignedCertificate();
  ca = tls.cert;
  receiver = https.createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    let body = '';
    request.on('data', (c) => {
      body += c;
    });
    request.on('end', () => {
      if (failuresLeft-- > 0) {
        response.writeHead(500).end('try later');
        return;
      }
      received.push({ body, signature: String(request.headers[SIGNATURE_HEADER]) });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/dossier`;
  t = await createTestContext();
  jobs = await JobQueue.start(t.url, { warn: () => undefined });
  const settings = { allowLoopback: true, ca, timeoutMs: 5000 };
  await jobs.work<{ deliveryId: string }>({
    name: WEBHOOK_QUEUE,
    retryLimit: 3,
    retryDelaySeconds: 1,
    handler: (data) => deliverWebhook(t.db, settings, data.deliveryId),
  });
  await addWebhook('root', '/', 'receiver', url);
  await addWebhook('internal', '/org/internal/', 'metadata', 'https://169.254.169.254/latest');
});

afterAll(async () => {
  await jobs.stop();
  await t.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('webhooks', () => {
  it('delivers a signed event, retrying after the receiver first answers 500', async () => {
    await t.db.transaction().execute((trx) =>
      publishWebhookEvent(trx, jobs, {
        type: 'requestClosed',
        scopePath: '/org/acme/',
        data: { requestNumber: 'ACM251122NNN07' },
      }),
    );
    await until(() => received.length > 0);
    expect(received).toHaveLength(1);
    const { body, signature } = received[0];
    expect(JSON.parse(body)).toMatchObject({
      event: 'requestClosed',
      scopePath: '/org/acme/',
      data: { requestNumber: 'ACM251122NNN07' },
    });
    expect(verifyDelivery(publicKey, body, signature)).toBe(true);
    expect(verifyDelivery(publicKey, `${body} `, signature)).toBe(false);
    expect(verifyDelivery(publicKey, body, signature, Date.now() + 3_600_000)).toBe(false);
    // The receiver has the body before the sender records its answer.
    const log = () =>
      t.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('entry_id', '=', 'receiver')
        .executeTakeFirstOrThrow();
    await until(async () => (await log()).status === 'delivered');
    expect(await log()).toMatchObject({ status: 'delivered', attempts: 2, response_status: 204 });
  });

  it('never connects to a metadata or private address, and records why', async () => {
    await t.db
      .transaction()
      .execute((trx) =>
        publishWebhookEvent(trx, jobs, { type: 'invoicePaid', scopePath: '/org/internal/', data: {} }),
      );
    const row = () =>
      t.db.selectFrom('webhook_deliveries').selectAll().where('entry_id', '=', 'metadata').executeTakeFirst();
    await until(async () => (await row())?.status === 'failed');
    expect((await row())?.error).toBe('The URL points to a forbidden address.');
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
  it('is shown to configuration viewers of the scope only', async () => {
    const { createUser, signIn, XHR } = await import('./helpers.js');
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
      responseStatus: 204,
    });
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
});
