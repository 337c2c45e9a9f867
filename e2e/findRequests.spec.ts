import { withDatabase } from './db';
import { expect, signIn, test } from './fixtures';

// Find requests and select recipient: a handler finds a request by applicant name, sees its hover
// preview and opens it; then chooses a recipient from the directory for a request and saves it.

const shot = (name: string) => test.info().outputPath(`${name}.png`);

test('a handler finds a request by applicant name, previews it and opens it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await signIn(page, 'handler');
  await page.goto('/requests/find');
  await expect(page.getByTestId('find-requests-page')).toBeVisible();
  await page.getByTestId('search-subject').fill('olivia');
  await page.getByTestId('search-submit').click();
  await expect(page.getByTestId('search-summary')).toHaveText(/Showing \d+ search result\(s\)\./);
  await expect(page).toHaveURL(/subject=olivia.*search=1|search=1.*subject=olivia/);
  const first = page.getByTestId('search-hit-link').first();
  const number = (await first.textContent())?.trim() ?? '';
  expect(number).toMatch(/^[A-Z]{3}\d{6}[A-Z]{3}\d{2}$/);
  await expect(page.getByTestId('search-results')).toContainText('Olivia Chen');

  await first.hover();
  await expect(page.getByTestId('request-hover-preview')).toBeVisible();
  await expect(page.getByTestId('request-hover-preview')).toContainText('Olivia Chen');
  await page.screenshot({ path: shot('find-preview') });

  // Full text with highlights, then nothing found.
  await page.getByTestId('search-subject').fill('');
  await page.getByTestId('search-q').fill('olivia');
  await page.getByTestId('search-submit').click();
  await expect(page.locator('[data-testid="search-hit-highlight"] mark').first()).toHaveText(/olivia/i);
  await page.getByTestId('search-q').fill('zzzzzz');
  await page.getByTestId('search-submit').click();
  await expect(page.getByTestId('search-summary')).toHaveText('No matching search result.');

  // The address repeats the search, and a hit opens its request page.
  await page.getByTestId('search-q').fill('');
  await page.getByTestId('search-requestNumber').fill(number);
  await page.getByTestId('search-submit').click();
  await expect(page.getByTestId('search-summary')).toHaveText('Showing 1 search result(s).');
  await page.reload();
  await expect(page.getByTestId('search-summary')).toHaveText('Showing 1 search result(s).');
  await page.getByTestId('search-hit-link').first().click();
  await expect(page).toHaveURL(new RegExp(`/requests/${number}$`));
  await expect(page.getByTestId('request-page')).toBeVisible();
});

test('a handler selects a recipient from the directory for a request and saves it', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  const n = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at limit 1`,
    );
    return r.rows[0].request_number as string;
  });
  await signIn(page, 'handler');
  await page.goto(`/requests/${n}/select-recipient?search.name=sydney&search._trigger=1`);
  await expect(page.getByTestId('select-recipient-page')).toBeVisible();
  await expect(page.getByTestId('current-recipient').getByTestId('recipient-state')).toBeVisible();
  await expect(page.getByTestId('recipient-search-summary')).toHaveText(/search result/);
  const hit = page
    .locator('[data-testid^="recipient-hit-"]')
    .filter({ hasText: 'Sydney City Hospital' })
    .first();
  await hit.getByTestId('recipient-pick').click();
  const form = page.getByTestId('recipient-form');
  await expect(form.getByTestId('recipient-state')).toHaveAttribute('data-state', 'unchanged');
  await form.getByTestId('recipient-notes').fill('Ask for the records department.');
  await expect(form.getByTestId('recipient-state')).toHaveAttribute('data-state', 'updated');
  await page.getByTestId('recipient-contact-choice').click();
  await page.getByRole('option').first().click();
  await page.screenshot({ path: shot('select-recipient'), fullPage: true });
  await page.getByTestId('recipient-save').click();
  await expect(page).toHaveURL(new RegExp(`/requests/${n}$`));
  await expect(page.getByTestId('request-page')).toBeVisible();

  await page.goto(`/requests/${n}/select-recipient`);
  await expect(page.getByTestId('current-recipient-name')).toHaveText('Sydney City Hospital');
  await expect(page.getByTestId('current-recipient').getByTestId('recipient-state')).toHaveAttribute(
    'data-state',
    'updated',
  );
});
