import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.js';
import type { DbOrTrx } from '../../src/db/database.js';
import { invalidateConfigurationCache } from '../../src/features/configuration/effective.js';
import { deliverWebhook, WEBHOOK_QUEUE } from '../../src/features/webhooks/service.js';
import { SIGNATURE_HEADER } from '../../src/features/webhooks/signature.js';
import { JobQueue } from '../../src/jobs/queue.js';
import type { TestContext } from '../helpers.js';

// What the webhook tests share: an https receiver on loopback with a self-signed certificate (the
// sender trusts it through the `ca` setting and reaches loopback through the test-only setting),
// and webhook entries stored the way the configuration editor stores them, with their key pair.

export interface ReceivedDelivery {
  event: string;
  body: string;
  signature: string;
}

export interface WebhookReceiver {
  url: string;
  /** The receiver's certificate, to trust as the sender's `ca`. */
  ca: string;
  received: ReceivedDelivery[];
  /** How many requests were answered 500 so far. */
  failed(): number;
  close(): Promise<void>;
}

function selfSignedCertificate() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dossier-tls-'));
  try {
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
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts a receiver that answers 500 to its first `failFirst` requests, then 204, keeping those. */
export async function startWebhookReceiver(
  options: { failFirst?: number; redirectTo?: string } = {},
): Promise<WebhookReceiver> {
  const tls = selfSignedCertificate();
  const received: ReceivedDelivery[] = [];
  let failures = 0;
  const server = https.createServer(tls, (request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      // A receiver that sends the caller elsewhere (an SSRF attempt through a redirect).
      if (options.redirectTo) {
        response.writeHead(302, { location: options.redirectTo }).end();
        return;
      }
      if (failures < (options.failFirst ?? 0)) {
        failures++;
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    ca: tls.cert,
    received,
    failed: () => failures,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Stores a webhook entry for the scope (its configuration made when missing) with a fresh key pair,
 * the private half where the editor keeps it. Answers the public key a receiver verifies with.
 */
export async function addWebhookEntry(
  db: DbOrTrx,
  entry: { configurationId: string; scopePath: string; entryId: string; url: string },
): Promise<string> {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKey = keys.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  await db
    .insertInto('configurations')
    .values({ id: entry.configurationId, scope_path: entry.scopePath, name: entry.scopePath })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db
    .insertInto('configuration_entries')
    .values({
      configuration_id: entry.configurationId,
      id: entry.entryId,
      parent_id: 'c',
      type: 'apiWebhookEntry',
      name: entry.entryId,
      data: JSON.stringify({ url: entry.url, publicKey }),
    })
    .execute();
  await db
    .insertInto('configuration_secrets')
    .values({
      configuration_id: entry.configurationId,
      entry_id: entry.entryId,
      private_key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    })
    .execute();
  invalidateConfigurationCache(db);
  return publicKey;
}

/**
 * A job queue on the test's database working the webhook queue against this receiver (loopback
 * allowed, its CA trusted), retrying quickly; and an app that sends jobs through it, so actions
 * queue their deliveries in their transactions as in production.
 */
export async function workWebhooks(t: TestContext, receiver: WebhookReceiver) {
  const jobs = await JobQueue.start(t.url, { warn: () => undefined });
  await jobs.work<{ deliveryId: string }>({
    name: WEBHOOK_QUEUE,
    retryLimit: 3,
    retryDelaySeconds: 1,
    handler: (data) =>
      deliverWebhook(t.db, { allowLoopback: true, ca: receiver.ca, timeoutMs: 5000 }, data.deliveryId),
  });
  const app = await buildApp({ config: t.config, db: t.db, live: t.live, jobs });
  await app.ready();
  return { jobs, app };
}
