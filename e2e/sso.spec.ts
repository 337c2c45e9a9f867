import { withDatabase } from './db';
import { expect, signIn, signInAtProvider, test } from './fixtures';

// Signing in through the test OpenID provider's login form, on the page and again in the sign-in
// overlay; signing out there too.

test.beforeAll(async () => {
  await withDatabase((db) =>
    db.query(
      `update users set external_user_id = case id when 'handler' then 'sso-handler' else 'sso-submitter' end
        where id in ('handler', 'submitter')`,
    ),
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

test('somebody else signing in through the overlay window is told so and sees their own home', async ({
  page,
  request,
}) => {
  await signIn(page, 'handler');
  const session = (await page.context().cookies()).find((c) => c.name === 'dossier_session');
  await request.post('/signout', {
    headers: { 'x-requested-with': 'XMLHttpRequest', cookie: `dossier_session=${session?.value}` },
  });
  await page.getByTestId('navbar').getByTestId('menu-link-help').click();
  const overlay = page.getByRole('dialog', { name: 'Sign In To Your Account' });
  await page.getByTestId('product-name').click();
  await expect(overlay).toBeVisible();
  const popup = page.waitForEvent('popup');
  await overlay.getByTestId('signin-overlay-sso').click();
  await signInAtProvider(await popup, 'sso-submitter');
  await expect(overlay).toBeHidden();
  const notice = page.getByRole('dialog', { name: 'Signed in as someone else' });
  await expect(notice).toContainText('You signed in as Sam Submitter, not as Harper Handler.');
  await notice.getByTestId('signin-switched-ok').click();
  await expect(notice).toBeHidden();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Welcome, Sam Submitter' })).toBeVisible();
  await expect(page.getByTestId('user-name')).toHaveText('Sam Submitter');
});

test('the SSO error page signs in as someone else at the provider', async ({ page }) => {
  await page.goto('/signin');
  await page.getByTestId('signin-sso').click();
  await signInAtProvider(page, 'nobody-here');
  await expect(page.getByTestId('sso-error-message')).toHaveText(
    'Your account at the identity provider is not linked to any user here. Sign in as someone else at the provider, or ask your System Administrator to link your account.',
  );
  await expect(page.getByTestId('sso-error')).not.toContainText('nobody-here');
  // The provider asks who signs in, although it holds a session of the account it just signed in.
  await page.getByTestId('sso-signin-other').click();
  await signInAtProvider(page, 'sso-handler');
  await expect(page.getByTestId('user-name')).toHaveText('Harper Handler');
});
