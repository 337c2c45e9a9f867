import { withDatabase } from './db';
import { expect, signIn, test } from './fixtures';

// Issue 5, done when: a submitter of another organisation gets 403 on a request, its files and its
// search hits. Gale of /org/globex/ opens an Acme request, its authority and searches for it.

const shot = (name: string) => test.info().outputPath(`cross-${name}.png`);

test('a submitter of another organisation is refused an Acme request, its file and its search hits', async ({
  page,
}) => {
  const acme = await withDatabase(async (client) => {
    const r = await client.query(
      `select r.request_number, r.applicant_name, f.key, f.name
       from requests r join files f on f.owner_type = 'request' and f.owner_id = r.request_number
       where r.scope like '/org/acme/%' order by r.submitted_at desc, f.created_at limit 1`,
    );
    return r.rows[0] as { request_number: string; applicant_name: string; key: string; name: string };
  });
  const n = acme.request_number;
  await signIn(page, 'globex');

  // The request page, opened directly.
  const requestPage = await page.goto(`/requests/${n}`);
  expect(requestPage?.status()).toBe(403);
  await expect(page.getByTestId('access-denied')).toContainText('Access Denied');
  await expect(page.getByTestId('request-page')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(acme.applicant_name);
  await page.screenshot({ path: shot('request'), fullPage: true });

  // One of its files (the applicant's authority): 403, and nothing of the file.
  const file = await page.goto(`/files/${acme.key}`);
  expect(file?.status()).toBe(403);
  expect(file?.headers()['content-disposition']).toBeUndefined();
  await expect(page.getByTestId('access-denied')).toContainText('Access Denied');
  await expect(page.locator('body')).not.toContainText(acme.name);
  await page.screenshot({ path: shot('file'), fullPage: true });

  // Find Requests knows nothing of it, by its number nor by its applicant's name.
  await page.goto('/requests/find');
  await expect(page.getByTestId('find-requests-page')).toBeVisible();
  await page.getByTestId('search-requestNumber').fill(n);
  await page.getByTestId('search-submit').click();
  await expect(page.getByTestId('search-summary')).toHaveText('No matching search result.');
  await expect(page.getByTestId('search-hit-link')).toHaveCount(0);

  await page.getByTestId('search-requestNumber').fill('');
  await page.getByTestId('search-subject').fill(acme.applicant_name);
  const answered = page.waitForResponse(
    (r) => r.url().includes('/requests/search') && r.url().includes('subject='),
  );
  await page.getByTestId('search-submit').click();
  const search = await answered;
  expect(search.status()).toBe(200);
  expect(JSON.stringify(await search.json())).not.toContain(n);
  await expect(page.getByTestId('search-summary')).toBeVisible();
  // Globex may have a request about the same person: none of its hits is the Acme request.
  const hits = await page.getByTestId('search-hit-link').allTextContents();
  expect(hits.map((h) => h.trim())).not.toContain(n);
  expect(hits.every((h) => h.trim().startsWith('GLX'))).toBe(true);
  await page.screenshot({ path: shot('search'), fullPage: true });
});
