import { expect, test } from '@playwright/test';
import { withDatabase } from './db';

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

  const text = await withDatabase(async (db) => {
    const { rows } = await db.query(`select text from mail_outbox where "to" = $1 order by id desc limit 1`, [
      'gale@globex.example',
    ]);
    return rows[0].text as string;
  });
  const link = /https?:\/\/\S+\/set-password\?token=\S+/.exec(text)?.[0];
  expect(link).toBeTruthy();
  await page.goto(new URL(link ?? '').pathname + new URL(link ?? '').search);
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

  await page.goto(new URL(link ?? '').pathname + new URL(link ?? '').search);
  await expect(page.getByTestId('set-password-error')).toHaveText('The link has expired.');
});
