import { withDatabase } from './db';
import { ADMIN, expect, pick, signIn, test } from './fixtures';

// The admin outbox: a password reset puts a mail in the outbox (the journeys' SMTP server is not
// listening, so it waits); an administrator finds it under Administration > Outbox, opens it, and
// queues it again once its sending has failed.

test('an admin finds a waiting password reset mail in the outbox, opens it and sends it again once failed', async ({
  page,
}) => {
  await page.goto('/forgot-password');
  await page.getByTestId('reset-email').fill('sam@acme.example');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-sent')).toContainText('sam@acme.example');

  await signIn(page, ADMIN.username, ADMIN.password, '/dashboard');
  await page.getByTestId('menu-link-outbox').click();
  // The list shows at once, and its terms go to the address.
  await expect(page).toHaveURL(/\/admin\/outbox(\?|$)/);
  await expect(page.getByTestId('search-summary')).toBeVisible();

  // A bad address is refused at its field; then the filter finds the mail.
  await page.getByTestId('search-to').fill('not-an-address');
  await page.getByTestId('search-submit').click();
  await expect(page.getByText('Enter a valid email address.')).toBeVisible();
  await page.getByTestId('search-to').fill('sam@acme.example');
  await pick(page, 'search-status', 'Waiting');
  await page.getByTestId('search-submit').click();
  const row = page.getByTestId('search-results').locator('tbody tr').first();
  await expect(row).toContainText('Reset your password');
  await expect(row.getByTestId('outbox-status')).toHaveText('Waiting');

  await row.getByRole('link', { name: 'sam@acme.example' }).click();
  await expect(page).toHaveURL(/\/admin\/outbox\/\d+$/);
  await expect(page.getByTestId('page-title')).toHaveText('Outgoing Message');
  await expect(page.getByTestId('outbox-message-subject')).toHaveText('Reset your password');
  await expect(page.getByTestId('outbox-message-status')).toHaveText('Waiting');
  await expect(page.getByTestId('outbox-message-text')).toContainText('/set-password?token=');
  await expect(page.getByTestId('outbox-send-again')).toHaveCount(0);

  // The sender gave up on it (as it does after its last attempt); an administrator queues it again.
  const id = new URL(page.url()).pathname.split('/').pop() as string;
  await withDatabase((client) =>
    client.query(
      `update mail_outbox set failed_at = now(), attempts = 8, last_error = '550 Mailbox unavailable' where id = $1`,
      [id],
    ),
  );
  await page.reload();
  await expect(page.getByTestId('outbox-message-status')).toHaveText('Failed');
  await expect(page.getByTestId('outbox-message-error')).toContainText('550 Mailbox unavailable');
  await page.getByTestId('outbox-send-again').click();
  await expect(page.getByTestId('outbox-message-status')).toHaveText('Waiting');
  await expect(page.getByTestId('outbox-send-again')).toHaveCount(0);
  const row2 = await withDatabase((client) =>
    client.query('select failed_at, attempts from mail_outbox where id = $1', [id]),
  );
  expect(row2.rows[0].failed_at).toBeNull();
  expect(row2.rows[0].attempts).toBeLessThan(8);

  await page.getByRole('link', { name: 'Back to the outbox' }).click();
  await expect(page.getByTestId('admin-outbox-page')).toBeVisible();
});
