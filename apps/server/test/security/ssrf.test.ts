import dns from 'node:dns';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deliverWebhook, publishWebhookEvent } from '../../src/features/webhooks/service.js';
import type { JobQueue } from '../../src/jobs/queue.js';
import { createTestContext, type TestContext } from '../helpers.js';
import { addWebhookEntry, startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

// Server-side request forgery through webhooks, the class that hit helpdesk products: a receiver
// that answers with a redirect to an internal address, and a name that resolves to loopback. The
// delivery never follows a redirect, and a name is checked by the address it resolves to.

let t: TestContext;
let internal: WebhookReceiver;
let redirector: WebhookReceiver;
const queued: string[] = [];
const jobs = {
  send: async (_db: unknown, _queue: string, data: { deliveryId: string }) => {
    queued.push(data.deliveryId);
  },
} as unknown as JobQueue;

beforeAll(async () => {
  t = await createTestContext();
  internal = await startWebhookReceiver();
  redirector = await startWebhookReceiver({ redirectTo: `${internal.url}?stolen=1` });
});
afterAll(async () => {
  await t.close();
  await internal.close();
  await redirector.close();
});

async function deliverTo(entryId: string, url: string, allowLoopback: boolean) {
  const scopePath = `/org/${entryId.toLowerCase()}/`;
  await addWebhookEntry(t.db, { configurationId: entryId, scopePath, entryId, url });
  queued.length = 0;
  await t.db
    .transaction()
    .execute((trx) => publishWebhookEvent(trx, jobs, { type: 'requestClosed', scopePath, data: {} }));
  const [deliveryId] = queued;
  if (!deliveryId) throw new Error(`No webhook delivery was queued for ${url}.`);
  // A failed attempt asks the queue to retry by throwing; the attempt is recorded either way.
  await deliverWebhook(t.db, { allowLoopback, ca: redirector.ca, timeoutMs: 5000 }, deliveryId).catch(
    () => undefined,
  );
  return t.db
    .selectFrom('webhook_delivery_attempts')
    .select(['response_status', 'error'])
    .where('delivery_id', '=', deliveryId)
    .execute();
}

describe('webhooks and SSRF', () => {
  it('never follows a redirect, even to an address it may reach', async () => {
    const attempts = await deliverTo('redirect', redirector.url, true);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.response_status).toBe(302);
    expect(internal.received).toEqual([]);
  });

  it.each([
    ['localhost', 'https://localhost/hooks'],
    ['a decimal loopback', 'https://2130706433/hooks'],
    ['an IPv6 loopback', 'https://[::1]/hooks'],
    ['the metadata service', 'https://169.254.169.254/latest/meta-data'],
    ['a private network', 'https://10.0.0.5/hooks'],
  ])('refuses %s when loopback is not allowed, before connecting', async (_name, url) => {
    const entryId = `n${Math.random().toString(36).slice(2, 10)}`;
    const attempts = await deliverTo(entryId, url, false);
    expect(attempts).toEqual([
      {
        response_status: null,
        error: expect.stringMatching(/^The URL (points|resolves) to a forbidden address\.$/),
      },
    ]);
  });

  it('refuses a name that resolves to a public address when checked and to loopback when connecting (DNS rebinding)', async () => {
    // The first answer passes the check; the answer at connection time points at this machine.
    const checked = vi
      .spyOn(dns.promises, 'lookup')
      .mockResolvedValue([{ address: '93.184.216.34', family: 4 }] as never);
    const connected = vi
      .spyOn(dns, 'lookup')
      .mockImplementation(((
        _host: string,
        _options: unknown,
        callback: (error: null, addresses: dns.LookupAddress[]) => void,
      ) => callback(null, [{ address: '127.0.0.1', family: 4 }])) as never);
    try {
      const port = new URL(internal.url).port;
      const attempts = await deliverTo('rebind', `https://rebind.example:${port}/hooks`, false);
      expect(checked).toHaveBeenCalledWith('rebind.example', { all: true });
      expect(connected).toHaveBeenCalledWith('rebind.example', expect.anything(), expect.any(Function));
      expect(attempts).toEqual([
        {
          response_status: null,
          error: 'The webhook address rebind.example resolves to a forbidden address.',
        },
      ]);
      expect(internal.received).toEqual([]);
    } finally {
      checked.mockRestore();
      connected.mockRestore();
    }
  });
});
