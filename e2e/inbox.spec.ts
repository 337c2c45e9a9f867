import nodemailer from 'nodemailer';
import { withDatabase } from './db';
import { expect, pick, signIn, test } from './fixtures';
import { PORT } from './playwright.config';

/** The number with other check digits: one more never has the same remainder modulo 97. */
const forge = (n: string) => `${n.slice(0, -2)}${String((Number(n.slice(-2)) + 1) % 100).padStart(2, '0')}`;

// Mail in and the inbox: a message sent over SMTP to the inbox address with a valid request number
// appears in that request's correspondence while a handler has the page open; an unmatched one lands
// in the inbox, is linked with its attachment classified as a result, and the result shows on the
// request.

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const shot = (name: string) => test.info().outputPath(`${name}.png`);
const transport = () =>
  nodemailer.createTransport({ host: '127.0.0.1', port: PORT + 26, secure: false, ignoreTLS: true });

async function openAcmeRequest(): Promise<string> {
  return withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at desc limit 1 offset 2`,
    );
    return r.rows[0].request_number as string;
  });
}

test('a mail with a valid request number shows up live in the request correspondence', async ({ page }) => {
  const n = await openAcmeRequest();
  await signIn(page, 'handler');
  await page.goto(`/requests/${n}`);
  await expect(page.getByTestId('request-page')).toBeVisible();
  // Let the page announce itself on its live connection before the mail arrives.
  await page.waitForTimeout(1500);
  const mailer = transport();
  await mailer.sendMail({
    from: 'Records Officer <records@northside.example>',
    to: 'inbox@dossier.localhost',
    subject: `Records for request ${n}`,
    text: 'The records you asked for are attached.',
    attachments: [{ filename: 'records.pdf', content: PDF, contentType: 'application/pdf' }],
  });
  mailer.close();
  const item = page.getByTestId('correspondence-item').filter({ hasText: `Records for request ${n}` });
  await expect(item).toBeVisible({ timeout: 15_000 });
  await expect(item).toContainText('The records you asked for are attached.');
  await expect(item.getByTestId('correspondence-attachment')).toContainText('records.pdf');
  await page.screenshot({ path: shot('live-correspondence'), fullPage: true });
});

test('an unmatched mail is linked from the inbox with its attachment as a result', async ({ page }) => {
  const n = await openAcmeRequest();
  const subject = `Clinical notes ${Date.now()}`;
  const mailer = transport();
  await mailer.sendMail({
    from: 'Dr Grey <grey@clinic.example>',
    to: 'inbox@dossier.localhost',
    subject,
    text: 'Please see the clinical notes attached; we could not find your reference.',
    attachments: [{ filename: 'clinical-notes.pdf', content: PDF, contentType: 'application/pdf' }],
  });
  mailer.close();

  await signIn(page, 'handler');
  await page.goto('/inbox');
  await expect(page.getByTestId('inbox-page')).toBeVisible();
  await page.getByTestId('inbox-sender').fill('grey@clinic');
  await page.getByTestId('inbox-search').click();
  const hit = page.getByTestId('inbox-hit').filter({ hasText: subject });
  await expect(hit).toBeVisible();
  await expect(hit).toContainText('Not linked');
  await page.screenshot({ path: shot('inbox'), fullPage: true });

  await hit.getByTestId('inbox-hit-link').click();
  await expect(page.getByTestId('inbox-message-page')).toBeVisible();
  await expect(page.getByTestId('inbox-tasks')).toContainText('Classify Incoming Message');
  await page.getByTestId('inbox-action-link').click();
  const panel = page.getByTestId('inbox-link-panel');
  // A forged number is refused by its check digits before anything is asked of the server.
  await panel.getByTestId('inbox-link-number').fill(forge(n));
  await expect(panel).toContainText('The check digits of this request number are wrong.');
  await expect(panel.getByTestId('inbox-link-submit')).toBeDisabled();
  await panel.getByTestId('inbox-link-number').fill(n);
  await expect(panel.getByTestId('inbox-can-link')).toBeVisible();
  await pick(page, 'inbox-link-classification', 'Result');
  await pick(page, 'tag-documentType', 'Clinical notes');
  await page.screenshot({ path: shot('link-panel'), fullPage: true });
  await panel.getByTestId('inbox-link-submit').click();
  await expect(page.getByTestId('inbox-link-row')).toContainText(n);
  await expect(page.getByTestId('inbox-action-unlink')).toBeVisible();
  await page.screenshot({ path: shot('message-linked'), fullPage: true });

  await page.goto(`/requests/${n}`);
  await expect(page.getByTestId('correspondence-item').filter({ hasText: subject })).toBeVisible();
  await expect(page.getByTestId('result-item').filter({ hasText: 'clinical-notes.pdf' })).toBeVisible();
  await page.screenshot({ path: shot('request-with-result'), fullPage: true });
});

test('the open inbox shows new mail within two seconds, without a reload', async ({ page }) => {
  await signIn(page, 'handler');
  const connected = page.waitForResponse((r) => r.url().endsWith('/notifications') && r.ok());
  await page.goto('/inbox');
  await connected;
  await expect(page.getByTestId('inbox-hits')).toBeVisible();
  const subject = `Arrives live ${Date.now()}`;
  const mailer = transport();
  await mailer.sendMail({
    from: 'Dr Live <live@clinic.example>',
    to: 'inbox@dossier.localhost',
    subject,
    text: 'No reference in this one.',
  });
  mailer.close();
  await expect(page.getByTestId('inbox-hit').filter({ hasText: subject })).toBeVisible({ timeout: 2000 });
});
