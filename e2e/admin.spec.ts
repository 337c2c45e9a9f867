import type { Page } from '@playwright/test';
import { ADMIN, expect, pick, signIn, test } from './fixtures';

// Administration: an admin creates users with roles at a scope, the new users sign in and see only
// what their permissions allow, a scope admin is refused another scope's user, and recipients and
// payees are edited.

async function createUser(page: Page, user: { id: string; role: string; scope: string; password: string }) {
  await page.goto('/admin/users');
  await page.getByTestId('create-new').click();
  await expect(page.getByTestId('page-title')).toHaveText('New User');
  await pick(
    page,
    'user-scope',
    `${user.scope} (${user.scope === '/org/acme/' ? 'Acme Insurance' : 'Dossier'})`,
  );
  await page.getByTestId('user-form-userId').fill(user.id);
  await page.getByTestId('user-form-name').fill(`E2E ${user.id}`);
  await page.getByTestId('user-form-email').fill(`${user.id}@e2e.example`);
  await page.getByTestId('user-form-phone').fill('02 9876 0000');
  await page.getByTestId('user-form-password').fill(user.password);
  await page.getByTestId('user-form-repeatPassword').fill(user.password);
  await page.getByTestId('role-add-open').click();
  // Organisations are chosen by name.
  await pick(page, 'role-scope', user.scope === '/org/acme/' ? 'Acme Insurance' : 'Dossier');
  await pick(page, 'role-role', user.role);
  await page.getByTestId('role-add-confirm').click();
  await page.getByTestId('save').click();
  await expect(page).toHaveURL(new RegExp(`/admin/users/edit/${user.id.replace('.', '\\.')}$`));
  await expect(page.getByTestId('page-title')).toHaveText(`User: ${user.id}`);
  await expect(page.getByTestId('history-entry').first()).toContainText('User created');
}

async function signOut(page: Page) {
  await page.getByTestId('signout').click();
  await expect(page).toHaveURL(/\/signin/);
}

test('an admin creates a user with a role at a scope; the user changes its password and sees only its menu', async ({
  page,
}) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/users');
  await createUser(page, {
    id: 'e2e.handler',
    role: 'Handler',
    scope: '/org/acme/',
    password: 'First-Pass-2026!',
  });
  await signOut(page);

  // New users must change the password at the first sign-in.
  await page.getByTestId('signin-username').fill('e2e.handler');
  await page.getByTestId('signin-password').fill('First-Pass-2026!');
  await page.getByTestId('signin-submit').click();
  await expect(page).toHaveURL(/\/account\/change-password/);
  await page.getByTestId('cp-password').fill('First-Pass-2026!');
  await page.getByTestId('cp-new').fill('Second-Pass-2026!');
  await page.getByTestId('cp-repeat').fill('Second-Pass-2026!');
  await page.getByTestId('cp-submit').click();

  await expect(page.getByTestId('menu')).toBeVisible();
  await expect(page.getByTestId('menu-link-recipients')).toBeVisible();
  await expect(page.getByTestId('menu-link-payees')).toBeVisible();
  await expect(page.getByTestId('menu-link-administration-users')).toHaveCount(0);
  await expect(page.getByTestId('menu-link-configuration')).toHaveCount(0);
  await page.goto('/admin/users');
  await expect(page.getByTestId('access-denied')).toBeVisible();
});

test('a scope admin is refused another scope’s user', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/users');
  await createUser(page, {
    id: 'e2e.acmeadmin',
    role: 'Administrator',
    scope: '/org/acme/',
    password: 'Acme-Admin-2026!',
  });
  await page.getByTestId('user-passwordMustChange').uncheck();
  await page.getByTestId('save').click();
  await expect(page.getByTestId('save')).toBeDisabled();
  await signOut(page);

  await signIn(page, 'e2e.acmeadmin', 'Acme-Admin-2026!', '/admin/users');
  await page.getByTestId('search-submit').click();
  await expect(page.getByTestId('search-hit-submitter')).toBeVisible();
  await expect(page.getByTestId('search-hit-globex')).toHaveCount(0);
  await page.goto('/admin/users/edit/globex');
  await expect(page.getByTestId('invalid-url')).toBeVisible();
  await page.goto('/admin/users/edit/submitter');
  await expect(page.getByTestId('page-title')).toHaveText('User: submitter');
});

test('an admin edits a recipient with two contacts (one without a name is dropped) and a payee', async ({
  page,
}) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/recipients');
  await page.getByTestId('search-name').fill('sydney');
  await page.getByTestId('search-submit').click();
  await expect(page.getByTestId('search-summary')).toHaveText('Showing 1 search result(s).');
  await page.getByRole('link', { name: 'Sydney City Hospital' }).click();
  await expect(page.getByTestId('page-title')).toHaveText('Recipient: Sydney City Hospital');
  // The search is bound to the address: going back shows the same result again.
  await page.goBack();
  await expect(page).toHaveURL(/name=sydney/);
  await expect(page.getByTestId('search-summary')).toHaveText('Showing 1 search result(s).');
  await expect(page.getByTestId('search-name')).toHaveValue('sydney');
  await page.getByRole('link', { name: 'Sydney City Hospital' }).click();
  await expect(page.getByTestId('page-title')).toHaveText('Recipient: Sydney City Hospital');

  await page.getByTestId('contact-add').click();
  await page.getByTestId('contact-add').click();
  const contacts = page.getByTestId('contact');
  await contacts.nth(1).getByTestId('contact-name').fill('Dr Sam Second');
  await contacts.nth(1).getByTestId('contact-phone').fill('0412 999 888');
  await contacts.nth(2).getByTestId('contact-email').fill('nameless@sydneycity.example');
  // An attachment: an executable is refused with the file's name, a PDF is uploaded and kept.
  const attachments = page.getByTestId('recipient-attachments');
  await attachments.locator('input[type=file]').setInputFiles({
    name: 'tool.exe',
    mimeType: 'application/x-msdownload',
    buffer: Buffer.from('MZ'),
  });
  await expect(attachments.getByTestId('upload-error')).toHaveText('Error uploading file: tool.exe');
  await attachments.locator('input[type=file]').setInputFiles({
    name: 'fee-schedule.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
  });
  await expect(attachments.getByRole('link', { name: 'fee-schedule.pdf' })).toBeVisible();
  await page.getByTestId('save').click();
  await expect(page.getByTestId('save')).toBeDisabled();
  await expect(page.getByTestId('contact')).toHaveCount(2);

  await page.reload();
  await expect(page.getByTestId('contact')).toHaveCount(2);
  await expect(page.getByTestId('contact').nth(1).getByTestId('contact-phone')).toHaveValue('+61412999888');
  await expect(page.getByTestId('history-entry').first()).toContainText('Recipient changed (new version)');
  const href = await page
    .getByTestId('recipient-attachments')
    .getByRole('link', { name: 'fee-schedule.pdf' })
    .getAttribute('href');
  const file = await page.request.get(href ?? '');
  expect(file.status()).toBe(200);
  expect((await file.body()).subarray(0, 5).toString()).toBe('%PDF-');

  await page.getByTestId('menu-link-payees').click();
  await page.getByTestId('search-referenceNumber').fill('SCH');
  await page.getByTestId('search-submit').click();
  await page.getByRole('link', { name: 'Sydney City Hospital' }).click();
  await expect(page.getByTestId('payee-foreign-link')).toHaveAttribute(
    'href',
    'https://ledger.example/payees/SCH-0001',
  );
  await page.getByTestId('payee-name').fill('');
  await expect(page.getByText('Name is required.')).toBeVisible();
  await expect(page.getByTestId('save')).toBeDisabled();
  await page.getByTestId('payee-name').fill('Sydney City Hospital Accounts');
  await pick(page, 'payee-currency', 'NZD — New Zealand Dollar');
  await page.getByTestId('save').click();
  await expect(page.getByTestId('page-title')).toHaveText('Payee: Sydney City Hospital Accounts');
  await expect(page.getByTestId('history-entry').first()).toContainText('currency: AUD → NZD');
});
