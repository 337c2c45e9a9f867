import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { withDatabase } from './db';
import { expect, signIn, test } from './fixtures';
import { PORT } from './playwright.config';

// Issue request: a handler issues a request by email from its page, with the template of the
// configuration; the mail really reaches an SMTP server (this listener, where serve.mjs points the
// app's SMTP_URL) with the request letter attached as a PDF, and the correspondence shows it sent.

const SMTP_PORT = PORT + 25;
const shot = (name: string) => test.info().outputPath(`${name}.png`);
const received: ParsedMail[] = [];
let smtp: SMTPServer;

test.beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        received.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(SMTP_PORT, '127.0.0.1', () => resolve()));
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

test('a handler issues the request by email and the mail arrives with the PDF letter', async ({ page }) => {
  const { n, email, fax } = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number, recipient ->> 'email' as email, coalesce(recipient ->> 'fax', '') as fax from requests
       where issued_at is null and status = 'submitted' and scope like '/org/acme/%'
         and coalesce(recipient ->> 'email', '') <> ''
       order by submitted_at desc limit 1`,
    );
    return {
      n: r.rows[0].request_number as string,
      email: r.rows[0].email as string,
      fax: (r.rows[0].fax as string).trim(),
    };
  });
  const subject = `Records request ${n}`;
  await signIn(page, 'handler');
  await page.goto(`/requests/${n}`);
  await expect(page.getByTestId('request-page')).toBeVisible();

  await page.getByTestId('action-issueRequest').click();
  const panel = page.getByTestId('panel-issueRequest');
  // The recipient has an email address: email is the default method, and the template loads.
  await expect(panel.getByTestId('issueRequest-method')).toHaveValue('Email');
  await expect(panel).toContainText(`Sends to ${email}`);
  const editor = panel.getByTestId('issueRequest-body').locator('.ProseMirror');
  await expect(editor).toContainText('Dear ');
  await expect(editor).not.toContainText('${');
  // The subject starts from the template, so the letter can go as proposed.
  await expect(panel.getByTestId('issueRequest-subject')).toHaveValue(new RegExp(`request ${n}`));
  await expect(panel.getByTestId('panel-submit')).toBeEnabled();
  // Fax is offered only when the recipient has a fax number, never for its phone.
  await panel.getByTestId('issueRequest-method').click();
  await expect(page.getByRole('option', { name: 'Email', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Fax', exact: true })).toHaveCount(fax ? 1 : 0);
  await page.keyboard.press('Escape');

  // Switching template after editing the message asks first; keeping the changes keeps them.
  await editor.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' Please include imaging reports.');
  await panel.getByTestId('issueRequest-template').click();
  await page.getByRole('option', { name: 'Issue Request', exact: true }).click();
  await expect(page.getByTestId('issueRequest-switch-prompt')).toHaveText(
    'You have modified the message body, do you really want to switch template and lose your changes?',
  );
  await page.getByTestId('issueRequest-switch-cancel').click();
  await expect(editor).toContainText('Please include imaging reports.');

  await panel.getByTestId('issueRequest-subject').fill(subject);
  await expect(panel.getByTestId('panel-submit')).toBeEnabled();
  await page.screenshot({ path: shot('panel'), fullPage: true });
  await panel.getByTestId('panel-submit').click();

  // The request is issued: the action is gone and the correspondence lists the issued request.
  await expect(page.getByTestId('panel-issueRequest')).toHaveCount(0);
  await expect(page.getByTestId('action-issueRequest')).toHaveCount(0);
  const item = page.getByTestId('correspondence-item').first();
  await expect(item.getByTestId('correspondence-kind')).toHaveText('Issued Request · Email');
  await expect(item.getByTestId('correspondence-subject')).toHaveText(subject);
  await expect(item.getByTestId('correspondence-attachment').first()).toHaveText(`Request ${n}.pdf`);

  // The mail reaches the SMTP server with the letter as a PDF.
  await expect.poll(() => received.some((m) => m.subject === subject), { timeout: 20_000 }).toBe(true);
  const mail = received.find((m) => m.subject === subject) as ParsedMail;
  const to = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
  expect(to).toBe(email);
  expect(mail.text).toContain('Please include imaging reports.');
  const letter = mail.attachments.find((a) => a.filename === `Request ${n}.pdf`);
  expect(letter?.contentType).toBe('application/pdf');
  expect(letter?.content.subarray(0, 5).toString()).toBe('%PDF-');

  // The delivery status follows: sent.
  await expect
    .poll(
      async () => {
        await page.reload();
        return page
          .getByTestId('correspondence-item')
          .first()
          .getByTestId('correspondence-delivery')
          .textContent();
      },
      { timeout: 20_000 },
    )
    .toBe('Sent');
  await page.getByTestId('correspondence').scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('correspondence'), fullPage: true });
});

test('the author edits a note in the correspondence; Cancel leaves it unchanged', async ({ page }) => {
  const n = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at limit 1`,
    );
    return r.rows[0].request_number as string;
  });
  await signIn(page, 'handler');
  await page.goto(`/requests/${n}`);
  await page.getByTestId('action-addNote').click();
  await page.getByTestId('note-editor').locator('.ProseMirror').click();
  await page.keyboard.type('Called the clinic, records are on the way.');
  await page.getByTestId('panel-addNote').getByTestId('panel-submit').click();
  const note = page.getByTestId('correspondence-item').first();
  await expect(note.getByTestId('correspondence-body')).toHaveText(
    'Called the clinic, records are on the way.',
  );

  // Cancel leaves edit mode without saving.
  await note.getByTestId('correspondence-edit').click();
  const content = note.getByTestId('correspondence-content').locator('.ProseMirror');
  await content.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' Not saved.');
  await note.getByTestId('correspondence-cancel').click();
  await expect(note.getByTestId('correspondence-body')).toHaveText(
    'Called the clinic, records are on the way.',
  );

  // Save keeps the change and says who edited it.
  await note.getByTestId('correspondence-edit').click();
  await content.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' Expected Friday.');
  await page.screenshot({ path: shot('edit-note'), fullPage: true });
  await note.getByTestId('correspondence-save').click();
  await expect(note.getByTestId('correspondence-body')).toHaveText(
    'Called the clinic, records are on the way. Expected Friday.',
  );
  await expect(note.getByTestId('correspondence-edited')).toContainText('Harper Handler');
});
