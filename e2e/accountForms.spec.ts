import { expect } from '@playwright/test';
import { withDatabase } from './db';
import { ADMIN, DEMO_PASSWORD, signIn, test } from './fixtures';

// Issue 24 items 3 and 6: a form's server message goes once the field changes, and what the page
// offers is what the server does: Clear Lockout acts at once, the header follows a rename, and a
// phone-sized screen still reaches the account page.

test('the change-password page drops "must differ" once another password is typed', async ({ page }) => {
  await page.goto(`/account/change-password?${new URLSearchParams({ username: 'globex' })}`);
  await page.getByTestId('cp-password').fill(DEMO_PASSWORD);
  await page.getByTestId('cp-new').fill(DEMO_PASSWORD);
  await page.getByTestId('cp-repeat').fill(DEMO_PASSWORD);
  await page.getByTestId('cp-submit').click();
  const field = page.getByTestId('change-password-page');
  await expect(field).toContainText('The new password must differ from the current one.');
  await page.getByTestId('cp-new').fill('Another-Pass-2026!');
  await expect(field).not.toContainText('must differ');
});

test('Clear Lockout acts at once, without Save', async ({ page }) => {
  await withDatabase((db) =>
    db.query(
      "update users set locked_until = now() + interval '10 minutes', failed_signins = 5 where id = 'advisor'",
    ),
  );
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/users/edit/advisor');
  await expect(page.getByTestId('page-title')).toHaveText('User: advisor', { timeout: 20_000 });
  await expect(page.getByTestId('locked-out')).toBeVisible();
  await page.getByTestId('unlock').click();
  await expect(page.getByTestId('lockout-cleared')).toBeVisible();
  // Nothing waits for Save: the form is not dirty and the lock is gone on the server.
  await expect(page.getByTestId('save')).toBeDisabled();
  const row = await withDatabase((db) => db.query("select locked_until from users where id = 'advisor'"));
  expect(row.rows[0].locked_until).toBeNull();
  await page.reload();
  await expect(page.getByTestId('locked-out')).toHaveCount(0);
});

test('the header shows the new name after a rename', async ({ page }) => {
  await signIn(page, 'advisor', DEMO_PASSWORD, '/account');
  await expect(page.getByTestId('user-name')).toHaveText('Alex Advisor');
  const name = page.getByTestId('user-form-name');
  await name.fill('Alex Advisor-Renamed');
  await page.getByTestId('save').click();
  await expect(page.getByTestId('user-name')).toHaveText('Alex Advisor-Renamed');
  // Back as it was, for the other journeys.
  await name.fill('Alex Advisor');
  await page.getByTestId('save').click();
  await expect(page.getByTestId('user-name')).toHaveText('Alex Advisor');
});

test.describe('on a 390 px wide phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the burger menu reaches the account page', async ({ page }) => {
    await signIn(page, 'submitter');
    await expect(page.getByTestId('user-name')).toBeHidden();
    await page.getByTestId('burger').click();
    await page.getByTestId('navbar-account').click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByTestId('account-page')).toBeVisible();
  });
});

test("an administrator's Must change password sends the user's open page to the change-password page", async ({
  browser,
}) => {
  const admin = await browser.newPage();
  const advisor = await browser.newPage();
  try {
    await signIn(advisor, 'advisor', DEMO_PASSWORD, '/account');
    await expect(advisor.getByTestId('user-form-name')).toHaveValue('Alex Advisor');
    await signIn(admin, ADMIN.username, ADMIN.password, '/admin/users/edit/advisor');
    await expect(admin.getByTestId('page-title')).toHaveText('User: advisor', { timeout: 20_000 });
    await admin.getByTestId('user-passwordMustChange').click();
    await admin.getByTestId('save').click();
    await expect(admin.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    // The advisor's session stays open, but its next step leads to the change-password page.
    await advisor.getByTestId('user-form-name').fill('Alex Advisor Meanwhile');
    await advisor.getByTestId('save').click();
    await expect(advisor).toHaveURL(/\/account\/change-password/);
    await expect(advisor.getByTestId('change-password-page')).toBeVisible();
  } finally {
    await withDatabase((db) =>
      db.query("update users set password_must_change = false where id = 'advisor'"),
    );
    await admin.close();
    await advisor.close();
  }
});
