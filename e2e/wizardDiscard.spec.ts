import { expect } from '@playwright/test';
import { withDatabase } from './db';
import { pick, signIn, test } from './fixtures';

// Issue 20: the wizard's first step offers Discard, and a new draft is not saved until something
// beyond the organisation is entered (choosing it alone leaves no draft in the list).

test('the first step saves no draft for the organisation alone, and discards what was entered', async ({
  page,
}) => {
  // The journey counts drafts from none: earlier journeys leave the submitter one. (Not Globex's
  // user: the password reset journey gives it a new password.)
  await withDatabase((client) => client.query(`delete from request_drafts where user_id = 'submitter'`));
  await signIn(page, 'submitter');
  // A shared machine can be slow to open the page: the journey waits for it, not for a clock.
  test.setTimeout(90_000);
  await page.goto('/requests/new');
  await expect(page.getByTestId('drafts-none')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('wizard-discard')).toBeVisible();

  // The organisation alone (and the defaults it brings) is no draft yet.
  const saves: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes('/drafts/')) saves.push(r.url());
  });
  await pick(page, 'wizard-organization', 'Acme Insurance');
  await expect(page.getByTestId('wizard-on-behalf-of')).toBeEnabled({ timeout: 20_000 });
  await page.waitForTimeout(2_000);
  expect(saves).toEqual([]);

  // A reference number is something entered: saved by itself, listed after a reload.
  await page.getByTestId('wizard-reference-number').fill('GLX-REF-77');
  await expect(page.getByTestId('draft-save-state')).toContainText('saved', {
    ignoreCase: true,
    timeout: 20_000,
  });
  await page.reload();
  await expect(page.getByTestId('draft-item')).toHaveCount(1, { timeout: 20_000 });

  // Discard on the first step of a new draft: confirmed, the draft is gone and the form is empty.
  await pick(page, 'wizard-organization', 'Acme Insurance');
  await page.getByTestId('wizard-reference-number').fill('GLX-REF-78');
  await expect(page.getByTestId('draft-save-state')).toContainText('saved', {
    ignoreCase: true,
    timeout: 20_000,
  });
  await page.getByTestId('wizard-discard').click();
  await page.getByTestId('wizard-discard-confirm').click();
  await expect(page.getByTestId('draft-item')).toHaveCount(1, { timeout: 20_000 });
  await expect(page.getByTestId('wizard-reference-number')).toHaveValue('', { timeout: 20_000 });
  await page.screenshot({ path: test.info().outputPath('discarded.png'), fullPage: true });

  // The first draft is discarded from the list, leaving none.
  await page.getByTestId('draft-discard').click();
  await page.getByTestId('draft-discard-confirm').click();
  await expect(page.getByTestId('drafts-none')).toBeVisible({ timeout: 20_000 });
});
