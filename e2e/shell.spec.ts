import { ADMIN, expect, signIn, test } from './fixtures';

// The foundation's journeys: sign in, the menu by permission, Invalid URL, the sign-in overlay after
// the session ended on the server, the error banner, sign-out.

test('an admin signs in and sees the whole menu; the title follows the view', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password);
  await expect(page.getByTestId('user-name')).toHaveText('Administrator');
  const menu = page.getByTestId('navbar');
  for (const key of [
    'newRequest',
    'findRequests',
    'inbox',
    'taskSkillLevels',
    'completedTasks',
    'configuration',
  ]) {
    await expect(menu.getByTestId(`menu-link-${key}`)).toBeVisible();
  }
  await expect(menu.getByTestId('menu-link-administration-users')).toBeVisible();
  await menu.getByTestId('menu-link-help').click();
  await expect(page).toHaveURL(/\/help$/);
  await expect(page).toHaveTitle('Help');
});

test("a submitter's menu holds only what a submitter may do", async ({ page }) => {
  await signIn(page, 'submitter');
  const menu = page.getByTestId('navbar');
  await expect(menu.getByTestId('menu-link-newRequest')).toBeVisible();
  await expect(menu.getByTestId('menu-link-findRequests')).toBeVisible();
  for (const key of [
    'inbox',
    'taskSkillLevels',
    'completedTasks',
    'configuration',
    'administration-users',
    'recipients',
  ]) {
    await expect(menu.getByTestId(`menu-link-${key}`)).toHaveCount(0);
  }
});

test('a wrong password is refused with the message of the specification', async ({ page }) => {
  await signIn(page, 'handler', 'not-the-password');
  await expect(page).toHaveURL(/\/signin\?err=invalid/);
  await expect(page.getByTestId('signin-error')).toHaveText('Invalid username and/or password.');
});

test('an unknown address shows Invalid URL with the path, on load and on navigation', async ({ page }) => {
  await signIn(page, 'handler');
  await page.goto('/no/such/page');
  await expect(page.getByTestId('invalid-url')).toContainText('Invalid URL');
  await expect(page.getByTestId('invalid-url-path')).toHaveText('/no/such/page');
  // Away to a real page and back again: the client answers the unknown path itself too.
  await page.getByTestId('navbar').getByTestId('menu-link-dashboard').click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('invalid-url')).toHaveCount(0);
  await page.goBack();
  await expect(page.getByTestId('invalid-url-path')).toHaveText('/no/such/page');
});

test('after the session ends on the server, the sign-in overlay signs in again and reloads the view', async ({
  page,
  request,
}) => {
  await signIn(page, 'handler');
  await expect(page.getByTestId('user-name')).toBeVisible();
  // End the session on the server, as signing out in another window does.
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === 'dossier_session');
  const ended = await request.post('/signout', {
    headers: { 'x-requested-with': 'XMLHttpRequest', cookie: `dossier_session=${session?.value}` },
  });
  expect(ended.ok()).toBe(true);

  await page.getByTestId('navbar').getByTestId('menu-link-help').click();
  await page.getByTestId('product-name').click();
  const overlay = page.getByRole('dialog', { name: 'Sign In To Your Account' });
  await expect(overlay).toBeVisible();
  await expect(overlay).toContainText('Sign In To Your Account');
  await page.getByTestId('signin-overlay-username').fill('handler');
  await page.getByTestId('signin-overlay-password').fill('wrong');
  await page.getByTestId('signin-overlay-submit').click();
  await expect(page.getByTestId('signin-overlay-error')).toHaveText('Invalid username and/or password.');
  await page.getByTestId('signin-overlay-password').fill('Demo-Pass-2026!');
  await page.getByTestId('signin-overlay-submit').click();
  await expect(overlay).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Welcome, Harper Handler' })).toBeVisible();
});

test('a server error appears in the banner and can be dismissed', async ({ page }) => {
  await signIn(page, 'handler');
  await page.route('**/help', (route) =>
    route.request().resourceType() === 'fetch'
      ? route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Boom', code: 'internal' }),
        })
      : route.continue(),
  );
  await page.getByTestId('navbar').getByTestId('menu-link-help').click();
  const banner = page.getByTestId('error-banner');
  await expect(banner).toContainText('Server Communication Error');
  await expect(banner.getByTestId('error-message')).toHaveText('500: Boom');
  await banner.getByRole('button').first().click();
  await expect(banner).toBeHidden();
});

test('the small-screen menu opens and closes', async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 800 });
  await signIn(page, 'handler');
  const link = page.getByTestId('navbar').getByTestId('menu-link-help');
  await expect(link).not.toBeInViewport();
  await page.getByTestId('burger').click();
  await expect(link).toBeInViewport();
  await page.getByTestId('burger').click();
  await expect(link).not.toBeInViewport();
});

test('sign-out ends the session and returns to the sign-in page', async ({ page }) => {
  await signIn(page, 'manager');
  await page.getByTestId('signout').click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin\?return-url=%2F/);
});

test('contact and help pages render server rich text, with javascript: links neutralised', async ({
  page,
}) => {
  await page.goto('/contact');
  await expect(page.getByRole('link', { name: 'support@dossier.example' })).toHaveAttribute(
    'href',
    'mailto:support@dossier.example',
  );
});
