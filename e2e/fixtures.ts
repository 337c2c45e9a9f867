import { expect, type Page } from '@playwright/test';
import { carryDevice, completeSecondFactor } from './secondFactors';

// Journeys take `test` from here: it checks every page they visit with axe-core.
export { test } from './accessibility';
export { expect };

export const ADMIN = { username: 'admin', password: 'Admin-Pass-2026!' };
export const DEMO_PASSWORD = 'Demo-Pass-2026!';

/**
 * Signs in through the sign-in page as a person would. A user whose role requires a second factor
 * (the demo's administrators) signs in on a browser remembered after an earlier code, or answers the
 * code, or enrols a code generator first where the sign-in asks for that (secondFactors.ts).
 */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD, path = '/') {
  await carryDevice(page.context(), username);
  await passwordStep(page, username, password, path);
  await completeSecondFactor(page, username, path);
}

/** The sign-in's first step alone: the password, leaving whatever follows it to the journey. */
export async function passwordStep(page: Page, username: string, password = DEMO_PASSWORD, path = '/') {
  await page.goto(path);
  await expect(page).toHaveURL(/\/signin/);
  await page.getByTestId('signin-username').fill(username);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL(
    (url) =>
      !url.pathname.startsWith('/signin') || url.searchParams.has('err') || url.searchParams.has('step'),
  );
}

/** Adds a note on the open request page through its panel, and waits for the panel to close. */
export async function addNote(page: Page, text: string) {
  await page.getByTestId('action-addNote').click();
  const panel = page.getByTestId('panel-addNote');
  const editor = panel.locator('.ProseMirror');
  await editor.click();
  await editor.pressSequentially(text);
  await panel.getByTestId('panel-submit').click();
  await expect(panel).toHaveCount(0);
}

/** Chooses an option of a Mantine select. */
export async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Signs in on the test identity provider's own login form (e2e/oidc.ts): the login is the subject. */
export async function signInAtProvider(page: Page, subject: string) {
  await page.getByPlaceholder('Enter any login').fill(subject);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}
