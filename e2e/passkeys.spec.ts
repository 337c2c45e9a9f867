import type { CDPSession, Page } from '@playwright/test';
import { withDatabase } from './db';
import { DEMO_PASSWORD, expect, passwordStep, signIn, test } from './fixtures';

// Passkeys (issue 35) with Chromium's virtual authenticator (CDP WebAuthn): a user adds a passkey
// on the account page, signs out, signs in with password and passkey, then with the passkey alone
// (PASSKEY_SIGNIN is on in serve.mjs), and last with password and passkey ticking "Remember this
// device", after which the password alone signs in on that browser. The user is a copy of the submitter made for this journey,
// so no other journey meets a second step.

const USER = 'e2e.passkey';

test.beforeAll(async () => {
  await withDatabase((client) =>
    client.query(
      `insert into users (id, name, email, scope, password_hash, email_confirmed_at)
       select $1, 'Pat Passkey', 'passkey@acme.example', scope, password_hash, now()
       from users where id = 'submitter'
       on conflict (id) do nothing`,
      [USER],
    ),
  );
});

/** A platform authenticator with user verification (a fingerprint that always matches). */
async function virtualAuthenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return cdp;
}

test('a user adds a passkey and signs in with it, after the password and alone', async ({ page }) => {
  await virtualAuthenticator(page);
  await signIn(page, USER, DEMO_PASSWORD, '/account');
  await expect(page.getByTestId('account-page')).toBeVisible();
  await page.getByTestId('passkey-add').click();
  await page.getByTestId('passkey-name').fill('This laptop');
  await page.screenshot({ path: '.tmp/passkey-enrolment.png', fullPage: true });
  await page.getByTestId('passkey-create').click();
  await expect(page.getByTestId('recovery-codes')).toBeVisible();
  await page.getByTestId('recovery-codes-done').click();
  await expect(page.getByTestId('second-factor-row')).toContainText(['This laptopPasskey or security key']);
  await page.screenshot({ path: '.tmp/passkey-listed.png', fullPage: true });

  // After the password, the passkey is the second step.
  await page.getByTestId('signout').click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto('/account');
  await page.getByTestId('signin-username').fill(USER);
  await page.getByTestId('signin-password').fill(DEMO_PASSWORD);
  await page.getByTestId('signin-submit').click();
  await expect(page).toHaveURL(/\/signin\?step=code/);
  await expect(page.getByTestId('signin-remember')).toBeVisible();
  await page.screenshot({ path: '.tmp/passkey-second-step.png', fullPage: true });
  await page.getByTestId('signin-passkey').click();
  await expect(page.getByTestId('account-page')).toBeVisible();

  // Alone: no password at all.
  await page.getByTestId('signout').click();
  await expect(page).toHaveURL(/\/signin/);
  await page.screenshot({ path: '.tmp/passkey-signin.png', fullPage: true });
  await page.getByTestId('signin-passkey').click();
  await expect(page).not.toHaveURL(/\/signin/);
  await page.goto('/account');
  await expect(page.getByTestId('account-page')).toContainText(USER);

  // The session is gone (a 401 on Save): the overlay takes the same steps, the passkey among them.
  await page.context().clearCookies();
  await page.getByTestId('user-form-name').fill('Pat Passkey Kept');
  await page.getByTestId('user-form-phone').fill('0412 345 678');
  await page.getByTestId('save').click();
  const overlay = page.getByTestId('signin-overlay');
  await page.getByTestId('signin-overlay-username').fill(USER);
  await page.getByTestId('signin-overlay-password').fill(DEMO_PASSWORD);
  await page.getByTestId('signin-overlay-submit').click();
  await expect(page.getByTestId('signin-overlay-code')).toBeVisible();
  // The overlay offers to remember the browser as the page does (left unticked here).
  await expect(page.getByTestId('signin-overlay-remember')).toBeVisible();
  await overlay.getByTestId('signin-passkey').click();
  await expect(overlay).toBeHidden();
  await expect(page.getByTestId('user-form-name')).toHaveValue('Pat Passkey Kept');

  // "Remember this device" ticked before the passkey: the next password sign-in has no second step.
  await page.getByTestId('signout').click();
  await expect(page).toHaveURL(/\/signin/);
  await passwordStep(page, USER, DEMO_PASSWORD, '/account');
  await expect(page).toHaveURL(/\/signin\?step=code/);
  await page.getByTestId('signin-remember').check();
  await page.getByTestId('signin-passkey').click();
  await expect(page.getByTestId('account-page')).toBeVisible();
  await page.getByTestId('signout').click();
  await expect(page).toHaveURL(/\/signin/);
  await passwordStep(page, USER, DEMO_PASSWORD, '/account');
  await expect(page.getByTestId('account-page')).toContainText(USER);
});
