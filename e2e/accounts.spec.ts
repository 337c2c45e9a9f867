import { mailedLink } from './db';
import { ADMIN, DEMO_PASSWORD, expect, pick, signIn, test } from './fixtures';

// Self-registration: a visitor registers, confirms the email address through the link the outbox
// holds, signs in and adds the external role with an advisor code on the account page.

const PASSWORD = 'Visitor-Pass-2026!';

test('a visitor registers, confirms the email and adds an external role with an advisor code', async ({
  page,
}) => {
  await page.goto('/signin');
  await page.getByTestId('signin-create-account').click();
  await expect(page.getByTestId('page-title')).toHaveText('Register New Account');
  await expect(page).toHaveTitle('Register New Account');
  // A way back to Sign In.
  await expect(page.getByTestId('register-signin-link')).toHaveAttribute('href', '/signin');

  await page.getByTestId('user-form-userId').fill('visitor1');
  await page.getByTestId('user-form-name').fill('Vera Visitor');
  await page.getByTestId('user-form-email').fill('vera@visitor.example');
  await page.getByTestId('user-form-phone').fill('0412 555 123');
  await page.getByTestId('user-form-password').fill('weak');
  await expect(page.getByText('Password does not meet the minimum requirements.')).toBeVisible();
  await expect(page.getByTestId('save')).toBeDisabled();
  await page.getByTestId('user-form-password').fill(PASSWORD);
  await page.getByTestId('user-form-repeatPassword').fill('something else');
  await expect(page.getByText('Repeated password does not match.')).toBeVisible();
  await expect(page.getByTestId('save')).toBeDisabled();
  await page.getByTestId('user-form-repeatPassword').fill(PASSWORD);
  await page.getByTestId('save').click();

  await expect(page.getByTestId('created-user-id')).toHaveText('visitor1');
  await page.getByTestId('created-signin-link').click();
  await page.getByTestId('signin-username').fill('visitor1');
  await page.getByTestId('signin-password').fill(PASSWORD);
  await page.getByTestId('signin-submit').click();
  await expect(page.getByTestId('signin-error')).toContainText('confirm your email address');

  await page.goto(await mailedLink('vera@visitor.example', /https?:\/\/\S+\/account\/confirm\?token=\S+/));
  await expect(page.getByTestId('confirm-result')).toContainText('Your email address is confirmed');

  await signIn(page, 'visitor1', PASSWORD);
  await page.getByTestId('user-name').click();
  await expect(page.getByTestId('page-title')).toHaveText('Account: visitor1');
  await page.getByTestId('role-add-open').click();
  // Organisations are offered by name, not by scope path.
  await page.getByTestId('role-scope').click();
  await expect(page.getByRole('option', { name: '/org/acme/' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await pick(page, 'role-scope', 'Acme Insurance');
  await page.getByTestId('role-add-confirm').click();
  await expect(page.getByText('External reference is required.')).toBeVisible();
  await page.getByTestId('role-reference').fill('ADV-7001');
  await page.getByTestId('role-add-confirm').click();
  await page.getByTestId('save').click();
  await expect(page.getByTestId('save')).toBeDisabled();

  await page.reload();
  const role = page.locator('[data-role="c:roles:external:ADV-7001@/org/acme/"]');
  await expect(role).toBeVisible();
  // The role chip names the organisation too.
  await expect(role.getByTestId('role-organisation')).toHaveText('Acme Insurance');
  // The account page lets the user remove only external roles.
  await expect(role.getByTestId('role-remove')).toBeVisible();
  // A claimed external role grants nothing until an administrator of its scope approves it.
  await expect(role.getByTestId('role-pending')).toHaveText('Pending approval');
  await expect(page.getByTestId('roles-pending')).toBeVisible();

  await page.context().clearCookies();
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/users');
  const waiting = page.getByTestId('waiting-role-claim').filter({ hasText: 'visitor1' });
  await expect(waiting).toContainText('ADV-7001');
  await waiting.getByRole('link').click();
  await expect(page.getByTestId('page-title')).toContainText('visitor1');
  const claim = page.locator('[data-testid="role-claim"][data-role="c:roles:external:ADV-7001@/org/acme/"]');
  await page.screenshot({ path: test.info().outputPath('role-claim.png'), fullPage: true });
  await claim.getByTestId('claim-approve').click();
  await expect(page.getByTestId('role-claims')).toHaveCount(0);
  await expect(
    page.locator('[data-testid="role-item"][data-role="c:roles:external:ADV-7001@/org/acme/"]'),
  ).toBeVisible();

  await page.context().clearCookies();
  await signIn(page, 'visitor1', PASSWORD, '/account');
  await expect(role.getByTestId('role-pending')).toHaveCount(0);
});

test('the account page opens the add-role subview from the address and keeps other roles', async ({
  page,
}) => {
  await signIn(page, 'submitter', DEMO_PASSWORD, '/account?action=addRole');
  await expect(page.getByTestId('page-title')).toHaveText('Account: submitter');
  await expect(page.getByTestId('role-add')).toBeVisible();
  const submitter = page.locator('[data-role="c:roles:submitter@/org/acme/"]');
  await expect(submitter).toBeVisible();
  await expect(submitter.getByTestId('role-remove')).toHaveCount(0);
  await page.getByTestId('user-form-phone').fill('12');
  await expect(page.getByText('Enter a valid phone number')).toBeVisible();
  await expect(page.getByTestId('save')).toBeDisabled();
});
