import { expect, signIn, test } from './fixtures';

// Limits that spare an office (issue 35): the root scope entry names the trusted addresses whose
// failed sign-ins never hold back the address; other scopes do not offer the field. Nothing is saved.

test('the root scope entry offers trusted addresses', async ({ page }) => {
  await signIn(page, 'admin', 'Admin-Pass-2026!', '/admin/configuration/edit/root/scopeRoot');
  const field = page.getByTestId('scope-trustedAddresses');
  await expect(field).toBeVisible();
  await field.fill('10.20.0.0/16\n192.0.2.7');
  await field.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '.tmp/trusted-addresses.png' });
  await page.goto('/admin/configuration/edit/root/scopeAcme');
  await expect(page.getByTestId('scope-secondFactorRoles')).toBeVisible();
  await expect(page.getByTestId('scope-trustedAddresses')).toHaveCount(0);
});

test('the users report counts who has a second factor', async ({ page }) => {
  await signIn(page, 'admin', 'Admin-Pass-2026!', '/reports/users');
  const totals = page.getByTestId('report-totals');
  await expect(totals).toBeVisible({ timeout: 20_000 });
  const withFactor = Number(await totals.locator('[data-column="withSecondFactor"]').textContent());
  const without = Number(await totals.locator('[data-column="withoutSecondFactor"]').textContent());
  expect(without).toBeGreaterThan(0);
  expect(withFactor).toBeGreaterThanOrEqual(0);
  await totals.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '.tmp/users-report-second-factors.png' });
});
