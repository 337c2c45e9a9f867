import { withDatabase } from './db';
import { expect, signIn, test } from './fixtures';

// Signing in through the test OpenID provider, on the page and again in the sign-in overlay.

test.beforeAll(async () => {
  await withDatabase((db) =>
    db.query(`update users set external_user_id = 'sso-handler' where id = 'handler'`),
  );
});

test('a user signs in using SSO and lands on the page asked for', async ({ page }) => {
  await page.goto('/?from=sso');
  await expect(page).toHaveURL(/\/signin\?return-url=%2F%3Ffrom%3Dsso/);
  await page.getByTestId('signin-sso').click();
  await expect(page).toHaveURL(/\/\?from=sso$/);
  await expect(page.getByTestId('user-name')).toHaveText('Harper Handler');
  await expect(page.getByTestId('navbar').getByTestId('menu-link-sso-0')).toHaveText(/Records Archive/);
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
  await overlay.getByTestId('signin-overlay-sso').click();
  await expect(overlay).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Welcome, Harper Handler' })).toBeVisible();
});
