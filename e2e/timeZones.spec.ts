import { expect } from '@playwright/test';
import { withDatabase } from './db';
import { pick, signIn, test } from './fixtures';

// The time-zone rule in a browser that is neither in the server's zone nor the organisation's
// (Australia/Sydney): a due time entered as 14:30 is 14:30 Sydney time wherever it is shown, and a
// Find Requests day is a Sydney day, as on the page.

// A due date must not be in the past: the next 30 November at least a week away, always in Sydney's
// daylight saving time (AEDT).
const dueYear = (() => {
  const now = new Date();
  const year = now.getUTCFullYear();
  return Date.UTC(year, 10, 23) > now.getTime() ? year : year + 1;
})();

const shot = (name: string) => test.info().outputPath(`${name}.png`);

test('a handler in New York enters and reads times in Sydney time', async ({ browser }) => {
  test.setTimeout(180_000);
  const { n, submittedAt } = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number, submitted_at from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at desc limit 1 offset 1`,
    );
    return { n: r.rows[0].request_number as string, submittedAt: r.rows[0].submitted_at as Date };
  });
  const context = await browser.newContext({
    timezoneId: 'America/New_York',
    viewport: { width: 1440, height: 1000 },
  });
  const page = await context.newPage();
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(
    'America/New_York',
  );
  try {
    await signIn(page, 'handler');

    // A task due 30/11 14:30: the form says the time is Sydney's.
    await page.goto(`/requests/${n}`);
    await expect(page.getByTestId('request-page')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('action-addTask').click();
    const panel = page.getByTestId('panel-addTask');
    await pick(page, 'addTask-type', 'Follow Up');
    await panel.getByTestId('addTask-dueDate').fill(`30/11/${dueYear}`);
    await panel.getByTestId('addTask-dueTime').fill('14:30');
    await expect(panel).toContainText(/Sydney time \(AE[DS]T\)/);
    await page.screenshot({ path: shot('add-task') });
    await panel.getByTestId('panel-submit').click();
    await expect(panel).toHaveCount(0);
    // A follow-up is work with the recipient: it is listed under Tasks (Recipient).
    const tasks = page.getByTestId('request-recipient-tasks');
    // 14:30 in Sydney is 22:30 the day before in New York: the page keeps Sydney's clock, and says so.
    await expect(tasks).toContainText(`30 Nov ${dueYear}, 2:30 pm AEDT`);
    await expect(tasks).not.toContainText(`29 Nov ${dueYear}, 10:30 pm`);
    await expect(page.getByTestId('request-history')).toContainText(`due 30 Nov ${dueYear}, 2:30 pm AEDT`);

    // Once the task is done its Due column still shows when it was due.
    await withDatabase((client) =>
      client.query(
        `update tasks set completed_at = $2::timestamptz, completed_by = 'handler'
         where request_number = $1 and type = 'followUp' and due_at = $3::timestamptz`,
        [n, `${dueYear}-11-26 09:00+11`, `${dueYear}-11-30 14:30+11`],
      ),
    );
    await page.reload();
    await expect(page.getByTestId('request-page')).toBeVisible({ timeout: 30_000 });
    const done = page
      .locator('[data-testid="task-item"][data-type="followUp"]')
      .filter({ has: page.getByTestId('task-completed-at') });
    await expect(done.first().getByTestId('task-due')).toHaveText(`30 Nov ${dueYear}, 2:30 pm AEDT`);
    await expect(done.first().getByTestId('task-completed-at')).toHaveText(`26 Nov ${dueYear}, 9:00 am AEDT`);
    await page.screenshot({ path: shot('request-tasks'), fullPage: true });

    // Submitted late on 18 Nov in Sydney (12:24 UTC, 7:24 am in New York).
    await withDatabase((client) =>
      client.query(
        `update requests set submitted_at = timestamptz '2026-11-18 23:24+11' where request_number = $1`,
        [n],
      ),
    );
    await page.goto('/requests/find');
    await expect(page.getByTestId('find-requests-page')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('find-requests-form')).toContainText(/Days in Sydney time \(AE[DS]T\)/);
    await page.getByTestId('search-requestNumber').fill(n);
    await page.getByTestId('search-submittedAtFrom').fill('18/11/2026');
    await page.getByTestId('search-submittedAtTo').fill('18/11/2026');
    await page.getByTestId('search-submit').click();
    await expect(page.getByTestId('search-summary')).toHaveText('Showing 1 search result(s).');
    await expect(page.getByTestId('search-results')).toContainText('18 Nov 2026, 11:24 pm AEDT');
    await page.screenshot({ path: shot('find-requests') });
    // The next Sydney day does not hold it.
    await page.getByTestId('search-submittedAtFrom').fill('19/11/2026');
    await page.getByTestId('search-submittedAtTo').fill('19/11/2026');
    await page.getByTestId('search-submit').click();
    await expect(page.getByTestId('search-summary')).toHaveText('No matching search result.');
  } finally {
    await withDatabase((client) =>
      client.query('update requests set submitted_at = $2 where request_number = $1', [n, submittedAt]),
    );
    await context.close();
  }
});
