import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelivery } from '../src/features/webhooks/signature.js';
import type { JobQueue } from '../src/jobs/queue.js';
import { createTestContext, createUser, signIn, type TestContext, until } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { post, setRequestSettings, uploadPdf } from './support/resultsInvoices.js';
import {
  addWebhookEntry,
  startWebhookReceiver,
  type WebhookReceiver,
  workWebhooks,
} from './support/webhookReceiver.js';

// Every event worth telling another system (issue 8), caused through the real routes, reaches a
// matching webhook entry as a signed delivery: request issued, re-opened; result quality-assured
// (also when QA is skipped) or discarded; invoice added or paid. (Submitted and closed have their
// own tests in wizard.test.ts and webhookClose.test.ts.)

let t: TestContext;
let app: FastifyInstance;
let jobs: JobQueue;
let receiver: WebhookReceiver;
let publicKey = '';
let handler = '';
let n = '';

/** The one delivery of this event about this request, once it arrived; its signature checked. */
async function deliveryOf(event: string, requestNumber = n) {
  const find = () =>
    receiver.received.find(
      (d) => d.event === event && JSON.parse(d.body).data.requestNumber === requestNumber,
    );
  await until(() => find() !== undefined, 30_000);
  const delivery = find();
  expect(delivery, `${event} of ${requestNumber}`).toBeDefined();
  const { body, signature } = delivery as NonNullable<typeof delivery>;
  expect(verifyDelivery(publicKey, body, signature)).toBe(true);
  const parsed = JSON.parse(body);
  expect(parsed).toMatchObject({ event, scopePath: expect.stringMatching(/^\/org\/acme\//) });
  return parsed.data as Record<string, unknown>;
}

const act = async (path: string, body: object = {}) => {
  const res = await post(t, handler, path, body);
  expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
  return res.json();
};

async function addResult(requestNumber = n) {
  const key = await uploadPdf(t, handler);
  return (
    await act(`/requests/${requestNumber}/actions/addResult`, {
      file: { key },
      tags: { documentType: 'Medical records' },
    })
  ).resultId as string;
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestContext();
  // The app of this test sends jobs: actions queue their deliveries in their transactions.
  ({ jobs, app } = await workWebhooks(t, receiver));
  // The actions of this test go through the app that queues deliveries.
  t = { ...t, app };
  publicKey = await addWebhookEntry(t.db, {
    configurationId: 'acme',
    scopePath: '/org/acme/',
    entryId: 'partnerHook',
    url: receiver.url,
  });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  handler = await signIn(app, 'handler');
  n = await insertTestRequest(t.db, { scope: '/org/acme/', prefix: 'ACM', status: 'submitted' });
});

afterAll(async () => {
  await app.close();
  await jobs.stop();
  await t.close();
  await receiver.close();
});

describe('webhook events', () => {
  it('request issued', async () => {
    await act(`/requests/${n}/actions/issueRequest`, {
      issueRequestMethod: 'postal',
      subject: 'Request for records',
      body: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Please.' }] }] },
    });
    expect(await deliveryOf('requestIssued')).toMatchObject({ issueRequestMethod: 'postal' });
  });

  it('result quality-assured and result discarded', async () => {
    const kept = await addResult();
    await act(`/requests/${n}/results/${kept}/actions/qualityAssure`, { itemTypes: [] });
    expect(await deliveryOf('resultQualityAssured')).toMatchObject({ resultId: kept, itemTypes: [] });
    const dropped = await addResult();
    await act(`/requests/${n}/results/${dropped}/actions/discard`);
    expect(await deliveryOf('resultDiscarded')).toMatchObject({ resultId: dropped });
    // Adding a result that still awaits QA tells nobody yet.
    expect(receiver.received.filter((d) => d.event === 'resultQualityAssured')).toHaveLength(1);
  });

  it('result quality-assured when quality assurance is skipped', async () => {
    await setRequestSettings(t, '/org/acme/skipqa/', { disableResultQualityAssurance: true });
    const skipped = await insertTestRequest(t.db, { scope: '/org/acme/skipqa/', status: 'open' });
    const resultId = await addResult(skipped);
    expect(await deliveryOf('resultQualityAssured', skipped)).toMatchObject({
      resultId,
      qualityAssuranceSkipped: true,
    });
  });

  it('invoice added and invoice paid', async () => {
    const key = await uploadPdf(t, handler, 'invoice.pdf');
    const { invoiceId } = await act(`/requests/${n}/actions/addInvoice`, {
      file: { key },
      tags: { invoiceType: 'Records fee' },
    });
    expect(await deliveryOf('invoiceAdded')).toMatchObject({ invoiceId });
    await act(`/requests/${n}/invoices/${invoiceId}/actions/pay`, {
      payeeName: 'Northside Billing',
      method: 'cheque',
      amountExclusiveTax: 10_000,
      tax: 1_000,
      amount: 11_000,
      currency: 'AUD',
    });
    expect(await deliveryOf('invoicePaid')).toMatchObject({ invoiceId });
  });

  it('request re-opened', async () => {
    await act(`/requests/${n}/actions/closeRequest`, { tags: { closeReason: 'Completed' } });
    await deliveryOf('requestClosed');
    await act(`/requests/${n}/actions/reOpenRequest`, { tags: { reOpenReason: 'Sender query' } });
    expect(await deliveryOf('requestReOpened')).toMatchObject({ tags: { reOpenReason: 'Sender query' } });
  });

  it('logs each delivery as delivered under the entry', async () => {
    await until(async () => {
      const rows = await t.db.selectFrom('webhook_deliveries').select('status').execute();
      return rows.every((r) => r.status === 'delivered');
    });
    const rows = await t.db
      .selectFrom('webhook_deliveries')
      .select(['event_type', 'status'])
      .where('entry_id', '=', 'partnerHook')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.event_type)).toEqual([
      'requestIssued',
      'resultQualityAssured',
      'resultDiscarded',
      'resultQualityAssured',
      'invoiceAdded',
      'invoicePaid',
      'requestClosed',
      'requestReOpened',
    ]);
    expect(rows.every((r) => r.status === 'delivered')).toBe(true);
  });
});
