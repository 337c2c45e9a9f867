import { generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { SignJWT } from 'jose';
import { withDatabase } from './db';
import { ADMIN, expect, signIn, test } from './fixtures';

// Issue 8 as an administrator and a handler see it: an invoice that another system uploaded and
// whose payment it confirmed shows "Paid & Confirmed" with the link to its entry there, and the
// attempts of a webhook delivery are listed under the webhook entry in the configuration editor.

const shot = (name: string) => test.info().outputPath(`integrations-${name}.png`);
const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** Drops every instance's configuration cache after a change written straight into the database. */
const notifyConfigurationChange = (client: import('pg').Client) =>
  client.query(`select pg_notify('dossier_configuration', '')`);

/** An API key entry of /org/acme/ stored as the editor stores it; answers its private key. */
async function addAcmeApiKey(kid: string): Promise<KeyObject> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' });
  const base64 = (v: unknown) => Buffer.from(String(v), 'base64url').toString('base64');
  await withDatabase(async (client) => {
    await client.query(
      `insert into configuration_entries (configuration_id, id, parent_id, type, name, data)
       values ('orgAcme', $1, 'c', 'apiKeyEntry', 'Billing system', $2)`,
      [
        kid,
        JSON.stringify({
          publicKey: { modulus: base64(jwk.n), exponent: base64(jwk.e) },
          apiScopes: ['fileWrite', 'requestInvoiceRead', 'requestInvoiceWrite'],
        }),
      ],
    );
    await notifyConfigurationChange(client);
  });
  return privateKey;
}

async function callApi(page: Page, key: { kid: string; privateKey: KeyObject }, path: string, data?: object) {
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({ iat: now, exp: now + 60, jti: randomUUID() })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid })
    .setAudience('dossier-api')
    .sign(key.privateKey);
  const res = await page.request.post(path, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}

test('an invoice from another system shows its link, and Paid & Confirmed once that system confirms', async ({
  page,
}) => {
  const n = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at limit 1`,
    );
    return r.rows[0].request_number as string;
  });
  const kid = `e2eBilling${Date.now()}`;
  const key = { kid, privateKey: await addAcmeApiKey(kid) };

  // The billing system uploads its invoice with the link to its own entry.
  const upload = await callApi(page, key, '/api/v1/files', {
    name: 'invoice-e2e.pdf',
    contentType: 'application/pdf',
    contentLength: PDF.length,
  });
  const put = await page.request.put(upload.uploadUrl, { headers: upload.headers, data: PDF });
  expect(put.ok()).toBe(true);
  const { invoiceId } = await callApi(page, key, `/api/v1/requests/${n}/invoices`, {
    file: { key: upload.key },
    tags: { invoiceType: 'Records fee' },
    amountExclusiveTax: 10_000,
    tax: 1_000,
    amount: 11_000,
    currency: 'AUD',
    foreignReference: { url: 'https://billing.example/invoices/77', label: 'Billing entry 77' },
  });

  // A handler pays it; the invoice page shows Paid and the link.
  await signIn(page, 'handler');
  const invoicePage = `/requests/${n}/invoices/${invoiceId}`;
  const paid = await page.request.post(`${invoicePage}/actions/pay`, {
    headers: XHR,
    data: {
      payeeName: 'Northside Billing',
      method: 'cheque',
      amountExclusiveTax: 10_000,
      tax: 1_000,
      amount: 11_000,
      currency: 'AUD',
    },
  });
  expect(paid.ok()).toBe(true);
  await page.goto(invoicePage);
  await expect(page.getByTestId('invoice-status')).toHaveText('Paid');
  const link = page.getByTestId('invoice-foreign-link');
  await expect(link).toHaveText('Billing entry 77');
  await expect(link).toHaveAttribute('href', 'https://billing.example/invoices/77');
  await expect(page.getByTestId('payment-confirmed-at')).toHaveCount(0);

  // The billing system confirms the payment: Paid & Confirmed, with when.
  const confirmed = await callApi(
    page,
    key,
    `/api/v1/requests/${n}/invoices/${invoiceId}/payment-confirmation`,
  );
  expect(confirmed.paymentConfirmedAt).toBeTruthy();
  await page.reload();
  await expect(page.getByTestId('invoice-status')).toHaveText('Paid & Confirmed');
  await expect(page.getByTestId('payment-confirmed-at')).toBeVisible();
  await page.screenshot({ path: shot('invoice'), fullPage: true });
});

test('the attempts of a webhook delivery are listed under the webhook entry', async ({ page }) => {
  const entryId = `e2eHook${Date.now()}`;
  await withDatabase(async (client) => {
    await client.query(
      `insert into configuration_entries (configuration_id, id, parent_id, type, name, data)
       values ('root', $1, 'c', 'apiWebhookEntry', 'Partner system', $2)`,
      [entryId, JSON.stringify({ url: 'https://hooks.partner.example/dossier' })],
    );
    await notifyConfigurationChange(client);
    const delivery = await client.query(
      `insert into webhook_deliveries
         (configuration_id, entry_id, event_type, url, payload, status, attempts, response_status,
          created_at, last_attempt_at, delivered_at)
       values ('root', $1, 'requestClosed', 'https://hooks.partner.example/dossier', '{}', 'delivered', 2,
          204, now() - interval '1 minute', now(), now())
       returning id`,
      [entryId],
    );
    const id = delivery.rows[0].id;
    await client.query(
      `insert into webhook_delivery_attempts
         (delivery_id, attempt, attempted_at, duration_ms, response_status, response_excerpt, error)
       values ($1, 1, now() - interval '50 seconds', 120, 500, 'try later', 'The receiver answered 500.'),
              ($1, 2, now(), 35, 204, '', null)`,
      [id],
    );
  });

  await signIn(page, ADMIN.username, ADMIN.password);
  await page.goto(`/admin/configuration/edit/root/${entryId}`);
  const log = page.getByTestId('webhook-deliveries');
  await expect(log.getByTestId('webhook-delivery')).toHaveCount(1);
  await expect(log.getByTestId('webhook-delivery')).toContainText('requestClosed');
  await expect(log.getByTestId('webhook-delivery')).toContainText('after 2 attempts');
  await log.getByTestId('webhook-delivery-toggle').click();
  const attempts = log.getByTestId('webhook-attempt');
  await expect(attempts).toHaveCount(2);
  await expect(attempts.nth(0)).toContainText('500');
  await expect(attempts.nth(0)).toContainText('The receiver answered 500.');
  await expect(attempts.nth(0)).toContainText('try later');
  await expect(attempts.nth(0)).toContainText('120 ms');
  await expect(attempts.nth(1).getByTestId('webhook-attempt-status')).toHaveText('204');
  await page.screenshot({ path: shot('webhook-attempts'), fullPage: true });
  await log.getByTestId('webhook-delivery-toggle').click();
  await expect(attempts).toHaveCount(0);
});
