import { createRequestNumber } from '@dossier/core';
import { withDatabase } from './db';
import { expect, signIn, test } from './fixtures';

// The recipient answers online (issue 34): the handler issues a request by email; the recipient
// opens the link of the mail in the outbox, is refused with a wrong passcode and let in with the one
// of the second mail, sends two record files, an invoice with its amounts and a message; the
// handler's open request page shows them at once; the handler quality-assures a result, the sender
// downloads it, and never sees the invoice.

const shot = (name: string) => test.info().outputPath(`${name}.png`);
const PDF = (n: number) => Buffer.from(`%PDF-1.4\n% record ${n}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`);
const stamp = Date.now().toString(36);
const FIRST = `recipient-records-1-${stamp}.pdf`;
const FILES = [FIRST, `recipient-records-2-${stamp}.pdf`];
const INVOICE = `recipient-invoice-${stamp}.pdf`;

/** A request of its own, copied from a submitted acme request with an email recipient: the demo's
 * requests stay as the other journeys find them. Dated just before its original, never the newest. */
async function ownRequest(): Promise<{ n: string; email: string; submitter: string }> {
  return withDatabase(async (client) => {
    const r = await client.query(
      `select request_number, recipient ->> 'email' as email, submitted_by from requests
       where issued_at is null and status = 'submitted' and scope like '/org/acme/%'
         and coalesce(recipient ->> 'email', '') <> '' and submitted_by is not null
       order by submitted_at desc limit 1`,
    );
    const from = r.rows[0];
    const n = createRequestNumber('ACM', new Date());
    await client.query(
      `insert into requests (request_number, scope, status, submitted_on_behalf_of, reference_number,
         external_user_references, applicant, applicant_name, applicant_date_of_birth, recipient, recipient_id,
         recipient_name, content, tags, submitted_at, submitted_by, last_updated_at, last_activity_at)
       select $1, scope, 'submitted', submitted_on_behalf_of, reference_number, external_user_references, applicant,
         applicant_name, applicant_date_of_birth, recipient, recipient_id, recipient_name, content, tags,
         submitted_at - interval '1 minute', submitted_by, now(), now()
       from requests where request_number = $2`,
      [n, from.request_number],
    );
    return { n, email: from.email as string, submitter: from.submitted_by as string };
  });
}

async function outboxText(to: string, subject: RegExp): Promise<string> {
  return withDatabase(async (client) => {
    const r = await client.query(
      'select subject, text from mail_outbox where "to" = $1 order by id desc limit 10',
      [to],
    );
    return (r.rows.find((m) => subject.test(m.subject))?.text as string | undefined) ?? '';
  });
}

test('the recipient answers on the page; the handler sees it live and delivers the result', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const { n, email, submitter } = await ownRequest();
  const subject = `Records request ${n} online`;

  // The handler issues the request by email, and keeps its page open.
  await signIn(page, 'handler');
  await page.goto(`/requests/${n}`);
  await page.getByTestId('action-issueRequest').click();
  const panel = page.getByTestId('panel-issueRequest');
  await expect(panel.getByTestId('issueRequest-body').locator('.ProseMirror')).toContainText(
    "[link to the recipient's page]",
  );
  await panel.getByTestId('issueRequest-subject').fill(subject);
  await panel.getByTestId('panel-submit').click();
  await expect(page.getByTestId('action-issueRequest')).toHaveCount(0);
  const accesses = page.getByTestId('recipient-accesses');
  await expect(accesses.getByTestId('recipient-access')).toHaveCount(1);
  await expect(accesses.getByTestId('recipient-access-status').first()).toHaveText('Open');

  // The mails in the outbox: the link in the letter, the passcode alone in a second mail.
  const letter = await outboxText(email, new RegExp(`^${subject}$`));
  const link = /https?:\/\/\S+\/r\/[A-Za-z0-9_-]+/.exec(letter)?.[0] ?? '';
  expect(link).not.toBe('');
  const passcodeMail = await outboxText(email, /^Passcode for request/);
  const passcode = /is: ([A-Z0-9]{8})/.exec(passcodeMail)?.[1] ?? '';
  expect(passcode).toHaveLength(8);
  expect(letter).not.toContain(passcode);
  expect(passcodeMail).not.toContain(link);

  // The recipient, in a browser of its own, at phone width.
  const recipientContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const recipient = await recipientContext.newPage();
  await recipient.goto(new URL(link).pathname);
  await expect(recipient.getByTestId('recipient-passcode')).toBeVisible();
  await expect(recipient.getByTestId('navbar')).toHaveCount(0);
  await recipient.getByTestId('recipient-passcode-input').fill('WRONG123');
  await recipient.getByTestId('recipient-open').click();
  await expect(recipient.getByTestId('recipient-passcode')).toContainText(
    'This link and passcode do not open a request.',
  );
  await recipient.getByTestId('recipient-passcode-input').fill(passcode);
  await recipient.getByTestId('recipient-open').click();
  await expect(recipient.getByTestId('recipient-page')).toBeVisible();
  await expect(recipient.getByTestId('recipient-title')).toHaveText(`Request ${n}`);
  await expect(recipient.getByTestId('recipient-letter')).toBeVisible();
  await recipient.screenshot({ path: shot('recipient-page-phone'), fullPage: true });
  // The README's picture of the page (docs/recipient-page.png): what a phone shows first.
  await recipient.screenshot({ path: shot('recipient-page-readme') });

  // Two record files, complete.
  await recipient.getByTestId('recipient-records-files').click();
  await recipient
    .locator('[data-testid="recipient-records"] input[type=file]')
    .setInputFiles(FILES.map((name, i) => ({ name, mimeType: 'application/pdf', buffer: PDF(i) })));
  const sentAt = Date.now();
  await recipient.getByTestId('recipient-send-records').click();
  await expect(recipient.getByTestId('recipient-records-sent')).toBeVisible();

  // The handler's open page shows them within 2 s, marked as sent on the recipient's page.
  const via = page.getByTestId('correspondence-via-recipient-page');
  await expect(via.first()).toBeVisible({ timeout: 2_000 });
  console.log(
    `[recipientPage] the handler's page showed the records ${Date.now() - sentAt} ms after sending`,
  );
  await expect(page.getByTestId('result-item')).toHaveCount(2);

  // An invoice with its amounts and the payee entered.
  await recipient
    .locator('[data-testid="recipient-invoice"] input[type=file]')
    .setInputFiles({ name: INVOICE, mimeType: 'application/pdf', buffer: PDF(9) });
  await recipient.getByTestId('recipient-amountExclusiveTax').fill('100');
  await recipient.getByTestId('recipient-tax').fill('10');
  await recipient.getByTestId('recipient-amount').fill('110.00');
  const payee = recipient.getByTestId('recipient-payee');
  if ((await payee.inputValue()) !== 'Someone else: enter the payee') {
    await payee.click();
    await recipient.getByRole('option', { name: 'Someone else: enter the payee' }).click();
  }
  await recipient.getByTestId('recipient-payee-name').fill('Northside Medical Records');
  await recipient.getByTestId('recipient-send-invoice').click();
  await expect(recipient.getByTestId('recipient-invoice-sent')).toBeVisible();

  await recipient.getByTestId('recipient-message-text').fill('Please call us if anything is missing.');
  await recipient.getByTestId('recipient-send-message').click();
  await expect(recipient.getByTestId('recipient-message-sent')).toBeVisible();
  await expect(recipient.getByTestId('recipient-sent')).toContainText('wrote a message');
  await recipient.screenshot({ path: shot('recipient-page-sent'), fullPage: true });
  await recipientContext.close();

  await expect(page.getByTestId('invoice-item')).toHaveCount(1, { timeout: 5_000 });
  await expect(page.getByTestId('invoice-item').getByTestId('invoice-amount')).toHaveText('AUD 110.00');
  await expect(via).toHaveCount(3);
  await expect(page.locator('[data-testid="task-item"][data-type="payInvoice"]')).toHaveCount(1);
  await page.screenshot({ path: shot('handler-page'), fullPage: true });

  // Re-send: a new link and passcode; the one the recipient used stops working.
  await accesses.getByTestId('recipient-access-resend').click();
  await expect(accesses.getByTestId('recipient-access-status')).toHaveText(['Open', 'Revoked']);

  // The handler quality-assures the first record file.
  await page.getByTestId('result-item').filter({ hasText: FIRST }).getByTestId('result-link').click();
  await expect(page.getByTestId('result-status')).toHaveText('Awaiting QA');
  await page.getByTestId('action-qualityAssure').click();
  const boxes = page.getByTestId('panel-qualityAssure').locator('input[type=checkbox]');
  if ((await boxes.count()) > 0) await boxes.first().check();
  await page.getByTestId('qa-confirm').click();
  await expect(page.getByTestId('result-status')).toHaveText('QA Done');

  // The sender downloads it; the other, not quality-assured, and the invoice it never sees.
  const senderContext = await browser.newContext();
  const sender = await senderContext.newPage();
  await signIn(sender, submitter);
  await sender.goto(`/requests/${n}`);
  await expect(sender.getByTestId('request-page')).toBeVisible();
  await expect(sender.getByTestId('result-item')).toHaveCount(1);
  await expect(sender.getByTestId('invoice-item')).toHaveCount(0);
  await expect(sender.getByTestId('recipient-accesses')).toHaveCount(0);
  await expect(sender.getByText(INVOICE)).toHaveCount(0);
  await sender.goto('/results/download-files');
  const row = sender.locator('[data-testid^="download-row-"]').filter({ hasText: FIRST });
  await expect(row).toHaveCount(1);
  await row.getByTestId('download-button').click();
  await expect(row.getByTestId('download-button')).toBeDisabled();
  await expect(sender.locator('[data-testid^="download-row-"]').filter({ hasText: INVOICE })).toHaveCount(0);
  await senderContext.close();
});
