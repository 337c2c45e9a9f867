import { withDatabase } from './db';
import { expect, signIn, signInAtProvider, test } from './fixtures';

// Signing in through the test OpenID provider's login form, on the page and again in the sign-in
// overlay; signing out there too.

test.beforeAll(async () => {
  await withDatabase((db) =>
    db.query(`update users set external_user_id = 'sso-handler' where id = 'handler'`),
  );
});

test('a user signs in using SSO and lands on the page asked for', async ({ page }) => {
  await page.goto('/?from=sso');
  await expect(page).toHaveURL(/\/signin\?return-url=%2F%3Ffrom%3Dsso/);
  await page.getByTestId('signin-sso').click();
  await signInAtProvider(page, 'sso-handler');
  await expect(page).toHaveURL(/\/\?from=sso$/);
  await expect(page.getByTestId('user-name')).toHaveText('Harper Handler');
  await expect(page.getByTestId('navbar').getByTestId('menu-link-sso-0')).toHaveText(/Records Archive/);

  // Signing out signs out at the provider too, which asks, then comes back to the sign-in page.
  await page.getByTestId('signout').click();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByTestId('signin-sso')).toBeVisible();
  // The provider's session ended with it: the next sign-in asks for the login again.
  await page.getByTestId('signin-sso').click();
  await expect(page.getByPlaceholder('Enter any login')).toBeVisible();
});

test('the sign-in overlay signs in again through an SSO window', async ({ page, request }) => {
  await signIn(page, 'handler');
  const session = (await page.context().cookies()).find((c) => c.name === 'dossier_session');
  await request.post('/signout', {
    headers: { 'x-requested-with': 'XMLHttpRequest', cookie: `dossier_session=${session?.value}` },
  });
  await page.getByTestId('navbar').getByTestId('menu-link-help').click();
  await page.getByTestId('product-name').click();
  const overlay = page.getByRole('dialog', { name: 'Sign In To Your Account' });
  await expect(overlay).toBeVisible();
  const popup = page.waitForEvent('popup');
  await overlay.getByTestId('signin-overlay-sso').click();
  await signInAtProvider(await popup, 'sso-handler');
  await expect(overlay).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Welcome, Harper Handler' })).toBeVisible();
});
