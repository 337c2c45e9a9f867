import { expect as baseExpect, type Page } from '@playwright/test';
import { ADMIN, signIn, test } from './fixtures';

// Pages load their code on first use; on a busy machine that takes longer than the default 5 s.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 180_000 });

// The shared input rules in the browser: what a field shows once left is what the server stores
// (the same table as apps/server/test/inputRules.test.ts), a country is chosen from the list by its
// name, and a form never falls silent: every field that keeps Save grey says why beside it.

// [field, typed, shown once left and after saving]
const RECIPIENT_TABLE: [string, string, string][] = [
  ['recipient-webSiteUrl', 'https://user:pw@host.example/x', 'https://host.example/x'],
  ['recipient-streetAddress', ' 8 Macquarie St, \n\n  Sydney, NSW 2000 ', '8 Macquarie St\nSydney NSW 2000'],
  ['recipient-postalAddress', 'PO Box 1,\n ,\nSydney', 'PO Box 1\nSydney'],
  ['recipient-country', 'Australia', 'Australia'],
];

async function newRecipient(page: Page, name: string) {
  await page.goto('/admin/recipients/edit');
  await expect(page.getByTestId('page-title')).toHaveText('New Recipient');
  await page.getByTestId('recipient-name').fill(name);
  await page.getByTestId('recipient-phone').fill('02 9382 1111');
}

test('a recipient stores what its fields show: no credentials, clean addresses, the country by name', async ({
  page,
}) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/recipients');
  await newRecipient(page, 'Rules Table Hospital');
  for (const [field, typed, shown] of RECIPIENT_TABLE) {
    await page.getByTestId(field).fill(typed);
    await page.getByTestId(field).press('Tab');
    await expect(page.getByTestId(field), field).toHaveValue(shown);
  }
  // Text that names no country chooses nothing: the country chosen before stays.
  // (Not 'zz': the list filters names too, and Brazzaville has it.)
  await page.getByTestId('recipient-country').fill('qx');
  await page.getByTestId('recipient-country').press('Tab');
  await expect(page.getByTestId('recipient-country')).toHaveValue('Australia');
  await page.getByTestId('recipient-tag-kind').click();
  await page.getByRole('option', { name: 'hospital', exact: true }).click();
  await page.getByTestId('save').click();
  await expect(page.getByTestId('page-title')).toHaveText('Recipient: Rules Table Hospital');
  await page.reload();
  for (const [field, , shown] of RECIPIENT_TABLE)
    await expect(page.getByTestId(field), field).toHaveValue(shown);
  await expect(page.getByTestId('recipient-phone')).toHaveValue('+61293821111');

  // Found again by its phone typed in the national format.
  await page.goto('/admin/recipients');
  await page.getByTestId('search-phone').fill('02 9382 1111');
  await page.getByTestId('search-submit').click();
  await expect(page.getByRole('link', { name: 'Rules Table Hospital' })).toBeVisible();
});

test('a form says beside each field why Save is grey', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/recipients');
  await newRecipient(page, 'Silent Form Hospital');
  // The required Kind was never touched, yet it is what keeps Save grey.
  await expect(page.getByTestId('save')).toBeDisabled();
  await expect(page.getByText('Kind is required.')).toBeVisible();
  await page.getByTestId('recipient-tag-kind').click();
  await page.getByRole('option', { name: 'hospital', exact: true }).click();
  await expect(page.getByText('Kind is required.')).toHaveCount(0);
  await expect(page.getByTestId('save')).toBeEnabled();

  await page.getByTestId('contact-add').click();
  const contact = page.getByTestId('contact').first();
  await contact.getByTestId('contact-name').fill('Rita Records');
  await contact.getByTestId('contact-phone').fill('abc');
  await contact.getByTestId('contact-email').fill('rita@');
  await expect(contact.getByText('Enter a valid phone number.')).toBeVisible();
  await expect(contact.getByText('Enter a valid email address.')).toBeVisible();
  await expect(page.getByTestId('save')).toBeDisabled();
  await contact.getByTestId('contact-phone').fill('02 9382 2222');
  await contact.getByTestId('contact-email').fill('rita@stvincent.example');
  await expect(page.getByTestId('save')).toBeEnabled();

  await page.goto('/admin/payees/edit');
  await page.getByTestId('payee-name').fill('Silent Payee');
  await page.getByTestId('payee-foreignReference-url').fill('not a url');
  await expect(page.getByText('Enter a web address starting with http:// or https://.')).toBeVisible();
  await expect(page.getByTestId('save')).toBeDisabled();
  await page.getByTestId('payee-foreignReference-url').fill('https://clerk:secret@ledger.example/p/1');
  await page.getByTestId('payee-foreignReference-url').press('Tab');
  await expect(page.getByTestId('payee-foreignReference-url')).toHaveValue('https://ledger.example/p/1');
});

test('the user form takes a country by its name and stores it whole', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/users');
  await page.goto('/admin/users/edit');
  await expect(page.getByRole('heading', { name: 'New User' })).toBeVisible();
  await page.getByTestId('user-form-userId').fill('countryuser');
  await page.getByTestId('user-form-name').fill('Country User');
  await page.getByTestId('user-form-email').fill('countryuser@e2e.example');
  await page.getByTestId('user-form-phone').fill('02 9876 1234');
  await page.getByTestId('user-form-country').fill('New Zealand');
  await page.getByTestId('user-form-country').press('Tab');
  await expect(page.getByTestId('user-form-country')).toHaveValue('New Zealand');
  await page.getByTestId('user-form-address').fill(' 3 Queen St, \n\n Auckland ');
  await page.getByTestId('user-form-address').press('Tab');
  await expect(page.getByTestId('user-form-address')).toHaveValue('3 Queen St\nAuckland');
  await page.getByTestId('save').click();
  await expect(page.getByRole('heading', { name: 'User: countryuser' })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('user-form-country')).toHaveValue('New Zealand');

  // Found by its phone typed in the national format.
  await page.goto('/admin/users');
  await page.getByTestId('search-phone').fill('02 9876 1234');
  await page.getByTestId('search-submit').click();
  await expect(page.getByTestId('search-hit-countryuser')).toBeVisible();
});
