import nodemailer from 'nodemailer';
import { withDatabase } from './db';
import { expect, signIn, test } from './fixtures';
import { PORT } from './playwright.config';

// Issue 32 item 1: what the recipient mails in is staff's. A PDF mailed from a Globex request's
// recipient address ("Re: Request for records GLX…") is linked to the request; the Globex submitter
// sees that it arrived, not its text or attachment. The handler shares it with the sender: the
// submitter then reads it and opens its attachment. The handler stops sharing: the submitter no
// longer sees the text, and the file is refused.

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const shot = (name: string) => test.info().outputPath(`${name}.png`);
const BODY = 'Please find the records of your client attached.';

test('a handler shares a mailed-in message with the sender, then stops sharing it', async ({ browser }) => {
  test.setTimeout(90_000);
  const { n, from } = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number, recipient ->> 'email' as email from requests
       where status <> 'closed' and scope like '/org/globex/%' and coalesce(recipient ->> 'email', '') <> ''
       order by submitted_at desc offset 1 limit 1`,
    );
    return { n: r.rows[0].request_number as string, from: r.rows[0].email as string };
  });
  const subject = `Re: Request for records ${n}`;
  const mailer = nodemailer.createTransport({
    host: '127.0.0.1',
    port: PORT + 26,
    secure: false,
    ignoreTLS: true,
  });
  await mailer.sendMail({
    from: `Records Officer <${from}>`,
    to: 'inbox@dossier.localhost',
    subject,
    text: BODY,
    attachments: [{ filename: 'records.pdf', content: PDF, contentType: 'application/pdf' }],
  });
  mailer.close();

  // The submitter: that it arrived, from whom, with its subject; neither text nor attachment.
  const sender = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  await signIn(sender, 'globex');
  await sender.goto(`/requests/${n}`);
  const received = sender.getByTestId('correspondence-item').filter({ hasText: subject });
  await expect(received).toBeVisible({ timeout: 15_000 });
  await expect(received).toContainText(from);
  await expect(received.getByTestId('correspondence-withheld')).toBeVisible();
  await expect(received).not.toContainText(BODY);
  await expect(received.getByTestId('correspondence-attachment')).toHaveCount(0);
  await received.scrollIntoViewIfNeeded();
  await sender.screenshot({ path: shot('withheld-from-sender'), fullPage: true });

  // The handler sees it all, and shares it.
  const staff = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  await signIn(staff, 'handler');
  await staff.goto(`/requests/${n}`);
  const item = staff.getByTestId('correspondence-item').filter({ hasText: subject });
  await expect(item).toContainText(BODY);
  const link = item.getByTestId('correspondence-attachment');
  await expect(link).toContainText('records.pdf');
  const href = (await link.getAttribute('href')) ?? '';
  expect(href).toMatch(/^\/files\//);
  // Before sharing, the file is refused to the submitter even with its address.
  expect((await sender.request.get(href)).status()).toBe(403);
  await expect(item.getByTestId('correspondence-sharing')).toContainText('Not shared with the sender');
  await item.getByTestId('correspondence-share-with-sender').scrollIntoViewIfNeeded();
  await staff.screenshot({ path: shot('share-with-sender'), fullPage: true });
  await item.getByTestId('correspondence-share-with-sender').click();
  await expect(item.getByTestId('correspondence-sharing')).toContainText('Shared with the sender');
  await expect(item.getByTestId('correspondence-stop-sharing-with-sender')).toBeVisible();
  await expect(item.getByTestId('correspondence-share-with-sender')).toHaveCount(0);
  await expect(staff.getByTestId('request-history')).toContainText('with the sender.');

  // The submitter's page follows live (or on reload): the text and the attachment, which opens.
  await sender.reload();
  const shared = sender.getByTestId('correspondence-item').filter({ hasText: subject });
  await expect(shared).toContainText(BODY);
  await expect(shared.getByTestId('correspondence-withheld')).toHaveCount(0);
  const senderLink = shared.getByTestId('correspondence-attachment');
  await expect(senderLink).toContainText('records.pdf');
  const opened = await sender.request.get((await senderLink.getAttribute('href')) ?? '');
  expect(opened.status()).toBe(200);
  expect((await opened.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await sender.screenshot({ path: shot('shared-as-sender'), fullPage: true });

  // The handler stops sharing: withheld again, and the file refused.
  await item.getByTestId('correspondence-stop-sharing-with-sender').click();
  await expect(item.getByTestId('correspondence-share-with-sender')).toBeVisible();
  await sender.reload();
  const withheld = sender.getByTestId('correspondence-item').filter({ hasText: subject });
  await expect(withheld.getByTestId('correspondence-withheld')).toBeVisible();
  await expect(withheld).not.toContainText(BODY);
  await expect(withheld.getByTestId('correspondence-attachment')).toHaveCount(0);
  expect((await sender.request.get(href)).status()).toBe(403);
  await expect(staff.getByTestId('request-history')).toContainText('Stopped sharing the message');
});
