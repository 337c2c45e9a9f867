import { withDatabase } from './db';
import { ADMIN, DEMO_PASSWORD, expect, signIn, test } from './fixtures';

// Issue 33, items 1, 3, 4 and 6: a screen says why, and says what is true. A refusal reads as the
// server's reason, never as a failure to communicate; a grey button says why beside it; a save says
// it saved (to screen readers too); a bad From date marks From only.

async function openRequest(page: import('@playwright/test').Page) {
  const n = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at desc limit 1`,
    );
    return r.rows[0].request_number as string;
  });
  await signIn(page, 'handler');
  await page.goto(`/requests/${n}`);
  await expect(page.getByTestId('request-page')).toBeVisible();
  return n;
}

test('a refusal shows its reason as a plain sentence; a network failure is a communication error', async ({
  page,
}) => {
  await openRequest(page);
  // The server refuses the note with a reason (409): the banner says it was not done, and why.
  await page.route('**/actions/addNote', (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ message: 'The request is closed.', code: 'conflict' }),
    }),
  );
  await page.getByTestId('action-addNote').click();
  const panel = page.getByTestId('panel-addNote');
  const editor = panel.locator('.ProseMirror');
  await editor.click();
  await editor.pressSequentially('Refused note');
  await panel.getByTestId('panel-submit').click();
  const banner = page.getByTestId('error-banner');
  await expect(banner).toContainText('This was not done');
  await expect(banner.getByTestId('error-message')).toHaveText('The request is closed.');
  await expect(banner).not.toContainText('Server Communication Error');
  await expect(banner).not.toContainText('409');

  // The network fails: that, and only that (or a 5xx), is a Server Communication Error.
  await page.unroute('**/actions/addNote');
  await page.route('**/actions/addNote', (route) => route.abort('connectionrefused'));
  await panel.getByTestId('panel-submit').click();
  await expect(banner).toContainText('Server Communication Error');
});
