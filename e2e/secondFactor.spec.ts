import type { Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { withDatabase } from './db';
import { DEMO_PASSWORD, expect, passwordStep, signIn, test } from './fixtures';

// Second factors (issue 35): a user enrolls a code generator on the account page (the journey reads
// the secret shown and computes codes from it, as an app would), signs out, signs in with password
// and code, and then with a recovery code, which works once. The user is a copy of the submitter
// (same password) made for this journey, so no other journey meets a second step.

const USER = 'e2e.twostep';
const codeAt = (secret: string, ms: number) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: ms });

test.beforeAll(async () => {
  await withDatabase((client) =>
    client.query(
      `insert into users (id, name, email, scope, password_hash, email_confirmed_at)
       select $1, 'Tess Twostep', 'twostep@acme.example', scope, password_hash, now()
       from users where id = 'submitter'
       on conflict (id) do nothing`,
      [USER],
    ),
  );
});

/** The first step: the password, after which the page asks for the code. */
async function password(page: Page) {
  await page.goto('/account');
  await expect(page).toHaveURL(/\/signin/);
  await page.getByTestId('signin-username').fill(USER);
  await page.getByTestId('signin-password').fill(DEMO_PASSWORD);
  await page.getByTestId('signin-submit').click();
  await expect(page).toHaveURL(/\/signin\?step=code/);
}

async function signInWithCode(page: Page, code: string) {
  await password(page);
  await page.getByTestId('signin-code').fill(code);
  await page.getByTestId('signin-code-submit').click();
}

test('a user enrolls a code generator and signs in with a code, then once with a recovery code', async ({
  page,
}) => {
  await signIn(page, USER, DEMO_PASSWORD, '/account');
  await expect(page.getByTestId('account-page')).toBeVisible();
  await expect(page.getByTestId('second-factors-none')).toBeVisible();
  await page.getByTestId('second-factor-add').click();
  await expect(page.getByTestId('second-factor-qr')).toBeVisible();
  const secret = (await page.getByTestId('second-factor-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await page.getByTestId('second-factor-name').fill('Work phone');
  await page.getByTestId('second-factor-code').fill(codeAt(secret, Date.now()));
  await page.screenshot({ path: '.tmp/second-factor-enrolment.png', fullPage: true });
  await page.getByTestId('second-factor-confirm').click();
  await expect(page.getByTestId('recovery-codes')).toBeVisible();
  const recoveryCodes = await page.getByTestId('recovery-code').allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  await page.getByTestId('recovery-codes-done').click();
  await expect(page.getByTestId('second-factor-row')).toContainText(['Work phone']);
  await expect(page.getByTestId('recovery-codes-left')).toHaveText('Recovery codes left: 10');

  // Sign out; the password alone no longer signs in: the code follows.
  await page.getByTestId('signout').click();
  await expect(page).toHaveURL(/\/signin/);
  await password(page);
  await page.screenshot({ path: '.tmp/second-factor-signin.png', fullPage: true });
  await page.getByTestId('signin-code').fill('000000');
  await page.getByTestId('signin-code-submit').click();
  await expect(page.getByTestId('signin-error')).toHaveText('The code is not right.');
  // The enrolment used this time step; the next step's code (a step of drift is taken) signs in.
  await page.getByTestId('signin-code').fill(codeAt(secret, Date.now() + 30_000));
  await page.getByTestId('signin-code-submit').click();
  await expect(page.getByTestId('account-page')).toBeVisible();

  // A recovery code signs in once.
  const [recovery = ''] = recoveryCodes;
  await page.getByTestId('signout').click();
  await expect(page).toHaveURL(/\/signin/);
  await signInWithCode(page, recovery);
  await expect(page.getByTestId('account-page')).toBeVisible();
  await expect(page.getByTestId('recovery-codes-left')).toHaveText('Recovery codes left: 9');
  await page.getByTestId('signout').click();
  await expect(page).toHaveURL(/\/signin/);
  await signInWithCode(page, recovery);
  await expect(page.getByTestId('signin-error')).toHaveText('The code is not right.');

  // Removing the last one needs the current password and a code (a recovery code here).
  await page.getByTestId('signin-code').fill(recoveryCodes[1] ?? '');
  await page.getByTestId('signin-code-submit').click();
  await expect(page.getByTestId('account-page')).toBeVisible();
  await page.getByTestId('second-factor-remove').click();
  await page.getByTestId('second-factor-remove-password').fill(DEMO_PASSWORD);
  await page.getByTestId('second-factor-remove-code').fill(recoveryCodes[2] ?? '');
  await page.getByTestId('second-factor-remove-confirm').click();
  await expect(page.getByTestId('second-factors-none')).toBeVisible();
});

/** Acme's scope entry names the roles that must hold a second factor. */
const setRequirement = (roles: string[]) =>
  withDatabase(async (client) => {
    await client.query(
      `update configuration_entries set data = jsonb_set(data, '{secondFactorRoles}', $1::jsonb)
       where id = 'scopeAcme'`,
      [JSON.stringify(roles)],
    );
    await client.query(`select pg_notify('dossier_configuration', '')`);
  });

/** A submitter of acme with the demo password, made for one journey. */
const acmeSubmitter = (user: string, name: string, passwordMustChange = false) =>
  withDatabase(async (client) => {
    await client.query(
      `insert into users (id, name, email, scope, password_hash, email_confirmed_at, password_must_change)
       select $1, $2, $1 || '@acme.example', '/org/acme/', password_hash, now(), $3
       from users where id = 'submitter' on conflict (id) do nothing`,
      [user, name, passwordMustChange],
    );
    await client.query(
      `insert into user_roles (user_id, role, scope) select $1, 'c:roles:submitter', '/org/acme/'
       where not exists (select 1 from user_roles where user_id = $1)`,
      [user],
    );
  });

test('a second factor the configuration requires comes before anything else', async ({ page }) => {
  const user = 'e2e.mustenrol';
  await acmeSubmitter(user, 'Mona Mustenrol');
  await setRequirement(['c:roles:submitter']);
  try {
    await passwordStep(page, user, DEMO_PASSWORD, '/');
    // Straight to the account page, whatever the return address.
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByTestId('second-factors')).toBeVisible();
    // Nothing else opens until a code generator is added.
    await page.goto('/');
    await expect(page).toHaveURL(/\/account$/);
    await page.getByTestId('second-factor-add').click();
    const secret = (await page.getByTestId('second-factor-secret').textContent()) ?? '';
    await page.getByTestId('second-factor-name').fill('Phone');
    await page.getByTestId('second-factor-code').fill(codeAt(secret, Date.now()));
    await page.getByTestId('second-factor-confirm').click();
    await expect(page.getByTestId('recovery-codes')).toBeVisible();
    await page.goto('/');
    await expect(page).toHaveURL(/\/$/);
  } finally {
    await setRequirement([]);
  }
});

test('a password that must change first takes the same steps: the enrolment the role requires follows it', async ({
  page,
}) => {
  const user = 'e2e.mustchange';
  await acmeSubmitter(user, 'Chris Changer', true);
  await setRequirement(['c:roles:submitter']);
  try {
    await passwordStep(page, user, DEMO_PASSWORD, '/');
    await expect(page).toHaveURL(/\/account\/change-password/);
    await page.getByTestId('cp-password').fill(DEMO_PASSWORD);
    await page.getByTestId('cp-new').fill('Changed-Pass-2026!');
    await page.getByTestId('cp-repeat').fill('Changed-Pass-2026!');
    await page.getByTestId('cp-submit').click();
    // Not signed in with the new password alone: the account page, to add a second factor first.
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByTestId('second-factor-add')).toBeVisible();
    await page.goto('/');
    await expect(page).toHaveURL(/\/account$/);
  } finally {
    await setRequirement([]);
  }
});
