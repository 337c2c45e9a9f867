import { mailedLink, withDatabase } from './db';
import { expect, test } from './fixtures';

// Forgot password to set password to sign in. The link is read from the mail outbox, where mail
// waits when no SMTP server is configured.

test('a user who forgot the password sets a new one through the mailed link and signs in', async ({
  page,
}) => {
  await page.goto('/signin');
  await page.getByTestId('signin-forgot-password').click();
  await page.getByTestId('reset-email').fill('gale@globex.example');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-sent')).toContainText('gale@globex.example');

  const link = await mailedLink('gale@globex.example', /https?:\/\/\S+\/set-password\?token=\S+/);
  await page.goto(link);
  await expect(page.getByTestId('set-password-user')).toHaveValue('globex');
  await page.getByTestId('set-password-password').fill('weak');
  await expect(
    page.getByText('Password does not meet the minimum requirements.', { exact: false }),
  ).toBeVisible();
  await expect(page.getByTestId('set-password-submit')).toBeDisabled();
  await page.getByTestId('set-password-password').fill('Brand-New-Pass-77');
  await page.getByTestId('set-password-repeat').fill('Brand-New-Pass-77');
  await page.getByTestId('set-password-submit').click();
  await expect(page.getByTestId('password-changed')).toBeVisible();

  await page.getByTestId('password-changed-signin').click();
  await page.getByTestId('signin-username').fill('globex');
  await page.getByTestId('signin-password').fill('Brand-New-Pass-77');
  await page.getByTestId('signin-submit').click();
  await expect(page.getByTestId('user-name')).toHaveText('Gale Globex');

  await page.goto(link);
  await expect(page.getByTestId('set-password-error')).toHaveText('The link has expired.');
});

// Later journeys sign in as globex with the demo password: give it back (the hash of another demo
// account, whose password is the same).
test.afterAll(() =>
  withDatabase((client) =>
    client.query(
      `update users set password_hash = (select password_hash from users where id = 'submitter')
        where id = 'globex'`,
    ),
  ),
);
