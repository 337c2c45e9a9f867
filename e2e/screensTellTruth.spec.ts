import { withDatabase } from './db';
import { ADMIN, DEMO_PASSWORD, expect, signIn, test } from './fixtures';

// Issue 33, items 1, 3, 4, 5 and 6: a screen says why, and says what is true. A refusal reads as the
// server's reason, never as a failure to communicate; a grey button says why beside it; a save says
// it saved (to screen readers too); signing in again after a 401 keeps what was typed; a bad From
// date marks From only.

async function openRequest(page: import('@playwright/test').Page) {
  const n = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at desc limit 1`,
    );
    return r.rows[0].request_number as string;
  });
  await signIn(page, 'handler');
  await page.goto(`/requests/${n}`);
  await expect(page.getByTestId('request-page')).toBeVisible();
  return n;
}

test('a refusal shows its reason as a plain sentence; a network failure is a communication error', async ({
  page,
}) => {
  await openRequest(page);
  // The server refuses the note with a reason (409): the banner says it was not done, and why.
  await page.route('**/actions/addNote', (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'The request is closed.', code: 'conflict' }),
    }),
  );
  await page.getByTestId('action-addNote').click();
  const panel = page.getByTestId('panel-addNote');
  const editor = panel.locator('.ProseMirror');
  await editor.click();
  await editor.pressSequentially('Refused note');
  await panel.getByTestId('panel-submit').click();
  const banner = page.getByTestId('error-banner');
  await expect(banner).toContainText('This was not done');
  await expect(banner.getByTestId('error-message')).toHaveText('The request is closed.');
  await expect(banner).not.toContainText('Server Communication Error');
  await expect(banner).not.toContainText('409');

  // The network fails: that, and only that (or a 5xx), is a Server Communication Error.
  await page.unroute('**/actions/addNote');
  await page.route('**/actions/addNote', (route) => route.abort('connectionrefused'));
  await panel.getByTestId('panel-submit').click();
  await expect(banner).toContainText('Server Communication Error');
});

test('a grey Add Note, Close, Add Task and Send, and the wizard Next, say why', async ({ page }) => {
  await openRequest(page);
  await page.getByTestId('action-addNote').click();
  const note = page.getByTestId('panel-addNote');
  await expect(note.getByTestId('panel-submit')).toBeDisabled();
  await expect(note.getByTestId('disabled-reason')).toHaveText('Write the note to add it.');
  await expect(note.getByTestId('panel-submit')).toHaveAccessibleDescription('Write the note to add it.');
  await note.getByTestId('panel-cancel').click();

  await page.getByTestId('action-closeRequest').click();
  const close = page.getByTestId('panel-closeRequest');
  await expect(close.getByTestId('panel-submit')).toBeDisabled();
  await expect(close.getByTestId('disabled-reason')).toHaveText('Close Reason is required.');
  await close.getByTestId('panel-cancel').click();

  await page.getByTestId('action-addTask').click();
  const addTask = page.getByTestId('panel-addTask');
  await expect(addTask.getByTestId('panel-submit')).toBeDisabled();
  await expect(addTask.getByTestId('disabled-reason')).toHaveText('Task Type is required.');
  await addTask.getByTestId('panel-cancel').click();

  // Issue Request, on a request to a recipient with an email address (the default method).
  const issuable = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status = 'submitted' and scope like '/org/acme/%'
         and coalesce(recipient ->> 'email', '') <> '' order by submitted_at desc limit 1`,
    );
    return r.rows[0].request_number as string;
  });
  await page.goto(`/requests/${issuable}`);
  const issue = page.getByTestId('request-actions').getByRole('button', { name: /^Issue Request/ });
  await issue.click();
  const panel = page.getByTestId('panel-issueRequest');
  await expect(panel.getByTestId('issueRequest-subject')).not.toHaveValue('');
  await panel.getByTestId('issueRequest-subject').fill('');
  await expect(panel.getByTestId('panel-submit')).toBeDisabled();
  await expect(panel.getByTestId('disabled-reason')).toHaveText('Subject is required.');
  await panel.getByTestId('panel-cancel').click();

  // The wizard: an applicant email that is not one says so at the field, as every other form does.
  await withDatabase((client) => client.query(`delete from request_drafts where user_id = 'submitter'`));
  await page.context().clearCookies();
  await signIn(page, 'submitter', DEMO_PASSWORD, '/requests/new');
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('applicant-search-name').fill('Eve Email');
  await page.getByTestId('applicant-search-new').click();
  await page.getByTestId('applicant-dateOfBirth').fill('01/02/1980');
  await page
    .getByTestId('applicant-authority')
    .locator('input[type=file]')
    .setInputFiles({
      name: 'authority.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
    });
  await expect(page.getByTestId('applicant-authority')).toContainText('authority.pdf');
  await expect(page.getByTestId('wizard-next')).toBeEnabled();
  await page.getByTestId('applicant-email').fill('not-an-email');
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('disabled-reason')).toHaveText('Complete the marked fields to go on.');
  await expect(page.getByTestId('wizard')).toHaveAttribute('data-step', 'applicant');
  await expect(page.getByTestId('applicant-form')).toContainText('Enter a valid email address.');
  await expect(page.getByTestId('applicant-email')).toHaveAttribute('aria-invalid', 'true');
  await withDatabase((client) => client.query(`delete from request_drafts where user_id = 'submitter'`));
});

test('a save says it saved, in a status region, until the next edit', async ({ page }) => {
  await signIn(page, 'advisor', DEMO_PASSWORD, '/account');
  const name = page.getByTestId('user-form-name');
  await expect(name).toHaveValue('Alex Advisor');
  const status = page.getByRole('status').filter({ hasText: 'Saved.' });
  await name.fill('Alex Advisor Saved');
  await page.getByTestId('save').click();
  await expect(status).toBeVisible();
  await name.fill('Alex Advisor');
  await expect(status).toHaveCount(0);
  await page.getByTestId('save').click();
  await expect(status).toBeVisible();

  // An administrator's edit page of a user says so too.
  await page.context().clearCookies();
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/users/edit/advisor');
  await expect(page.getByTestId('page-title')).toHaveText('User: advisor', { timeout: 20_000 });
  const adminName = page.getByTestId('user-form-name');
  await adminName.fill('Alex Advisor Edited');
  await page.getByTestId('save').click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await adminName.fill('Alex Advisor');
  await page.getByTestId('save').click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
});

test('a From date after a valid To marks From only', async ({ page }) => {
  await signIn(page, 'manager', undefined, '/reports/requests/closed');
  await expect(page.getByTestId('report-page')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('report-totals')).toBeVisible({ timeout: 30_000 });
  // To is today (the default period); From is moved past it.
  const next = new Date(Date.now() + 40 * 86_400_000);
  const dd = (n: number) => String(n).padStart(2, '0');
  await page
    .getByTestId('report-from')
    .fill(`${dd(next.getDate())}/${dd(next.getMonth() + 1)}/${next.getFullYear()}`);
  await page.getByTestId('report-run').click();
  await expect(page.getByText('The start date is after the end date.')).toBeVisible();
  await expect(page.getByText('The end date is before the start date.')).toHaveCount(0);
  await expect(page.getByTestId('report-from')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('report-to')).not.toHaveAttribute('aria-invalid', 'true');
});

test('signing in again after a 401 keeps the unsaved edits; someone else signing in discards them, saying so', async ({
  page,
}) => {
  await signIn(page, 'advisor', DEMO_PASSWORD, '/account');
  const name = page.getByTestId('user-form-name');
  await expect(name).toHaveValue('Alex Advisor');
  await name.fill('Alex Advisor Kept');
  // The session is gone (a real 401 on Save): the overlay asks to sign in again.
  await page.context().clearCookies();
  await page.getByTestId('save').click();
  const overlay = page.getByTestId('signin-overlay');
  await expect(page.getByTestId('signin-overlay-username')).toBeVisible();
  await page.getByTestId('signin-overlay-username').fill('advisor');
  await page.getByTestId('signin-overlay-password').fill(DEMO_PASSWORD);
  await page.getByTestId('signin-overlay-submit').click();
  await expect(overlay).toBeHidden();
  await expect(name).toHaveValue('Alex Advisor Kept');
  await page.getByTestId('save').click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await name.fill('Alex Advisor');
  await page.getByTestId('save').click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  // Somebody else at the keyboard: the advisor's typing is not theirs to see or save.
  await name.fill('Typed by the advisor');
  await page.context().clearCookies();
  await page.getByTestId('save').click();
  await page.getByTestId('signin-overlay-username').fill('submitter');
  await page.getByTestId('signin-overlay-password').fill(DEMO_PASSWORD);
  await page.getByTestId('signin-overlay-submit').click();
  await expect(page.getByTestId('signin-switched-text')).toContainText(
    'The unsaved changes of Alex Advisor on that page were discarded.',
  );
  await page.getByTestId('signin-switched-ok').click();
  await expect(page).toHaveURL(/\/$/);
  const stored = await withDatabase((client) => client.query(`select name from users where id = 'advisor'`));
  expect(stored.rows[0].name).toBe('Alex Advisor');
});
