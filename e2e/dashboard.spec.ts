import type { Page } from '@playwright/test';
import { createRequestNumber } from '../packages/core/src/requestNumber';
import { withDatabase } from './db';
import { expect, pick, signIn, test } from './fixtures';

// The dashboard and download files (issue 7): a handler filters the dashboard by due today and by
// a key of the counts table, pages through a tile and opens a task's request; a submitter downloads
// a result and sees its button disabled.

const shot = (name: string) => test.info().outputPath(`${name}.png`);
const HOUR = 3_600_000;

// The journey's own scope: the handler sees every scope, so counts are read under a key of it.
const SCOPE = '/org/acme/dashe2e/';

/**
 * Twelve open requests in the journey's scope, each with an appointment task due an hour ago, one
 * deferred action due in a month and a quality-assured result. What an earlier run left is removed
 * first, so the counts are exact on a reused database.
 */
async function seedRequests(): Promise<void> {
  await withDatabase(async (client) => {
    const mine = 'select request_number from requests where scope = $1';
    await client.query(`delete from request_results where request_number in (${mine})`, [SCOPE]);
    await client.query(`delete from correspondence where request_number in (${mine})`, [SCOPE]);
    await client.query('delete from tasks where scope = $1', [SCOPE]);
    await client.query('delete from requests where scope = $1', [SCOPE]);
    const numbers: string[] = [];
    for (let i = 0; i < 12; i++) {
      // Three random letters per day: draw again on the rare repeat within the same day.
      let n = createRequestNumber('DSH', new Date(Date.now() - i * HOUR));
      while (numbers.includes(n)) n = createRequestNumber('DSH', new Date(Date.now() - i * HOUR));
      numbers.push(n);
      await client.query(
        `insert into requests (request_number, scope, status, submitted_by, applicant, applicant_name, recipient,
           recipient_name, content, submitted_at)
         values ($1, $2, 'open', 'submitter', $3, $4, '{"name":"Northside Medical"}', 'Northside Medical',
           '{"itemTypes":[],"additionalQuestions":[],"additionalFiles":[]}', now() - make_interval(hours => $5))`,
        [n, SCOPE, JSON.stringify({ name: `Dash Applicant ${i}` }), `Dash Applicant ${i}`, i],
      );
      await client.query(
        `insert into tasks (type, subject, request_number, scope, due_at)
         values ('appointment', 'Appointment', $1, $2, now() - interval '1 hour')`,
        [n, SCOPE],
      );
    }
    await client.query(
      `insert into tasks (type, subject, request_number, scope, due_at)
       values ('actionDeferred', 'Deferred', $1, $2, now() + interval '30 days')`,
      [numbers[0], SCOPE],
    );
    await client.query(
      `insert into request_results (request_number, file_key, quality_assured_at, item_types)
       values ($1, 'dashboard-e2e-missing', now(), '[{"id":"gp","name":"GP Notes"}]')`,
      [numbers[1]],
    );
  });
}

const tile = (page: Page, name: string) => page.getByTestId(`tile-${name}`);

test.beforeAll(async () => {
  await seedRequests();
});

test('a handler filters the dashboard, pages a tile and opens a task', async ({ page }) => {
  await signIn(page, 'handler');
  await page.getByTestId('navbar').getByTestId('menu-link-dashboard').click();
  await expect(page.getByTestId('dashboard-page')).toBeVisible();
  await expect(page.getByTestId('dashboard-task-type')).toHaveValue('excl. Sender Action Required');
  const tasks = tile(page, 'activeTasks');

  // A key of the counts table applies as a filter; the address keeps it.
  await tasks.getByTestId('tile-counts-toggle').click();
  await expect(tasks.getByTestId('tile-count-appointment')).toHaveText('12');
  await tasks.getByTestId('tile-key-appointment').click();
  await expect(page).toHaveURL(/activeTasks\.key=appointment/);
  await expect(tasks.getByTestId('tile-summary')).toHaveText('Showing entries 1 to 10 out of 12.');
  // An overdue task's badge is whole beside its date, never "OVERD…".
  const overdue = tasks.getByTestId('dashboard-item-overdue').first();
  await expect(overdue).toHaveText('Overdue');
  expect(
    await overdue.evaluate((badge) => {
      const label = badge.querySelector('.mantine-Badge-label') ?? badge;
      return label.scrollWidth <= label.clientWidth;
    }),
  ).toBe(true);

  // Due today keeps them (overdue counts as due today), due tomorrow does not.
  await pick(page, 'dashboard-due', 'Tomorrow');
  await expect(page).toHaveURL(/due=tomorrow/);
  await expect(tasks.getByTestId('tile-summary')).toHaveText('No entries to show.');
  await pick(page, 'dashboard-due', 'Today');
  await expect(page).toHaveURL(/due=today/);
  await expect(tasks.getByTestId('tile-summary')).toHaveText('Showing entries 1 to 10 out of 12.');

  // The deferred action is due in a month: there under all active tasks, not today.
  await pick(page, 'dashboard-due', 'All Active Tasks');
  await tasks.getByTestId('tile-key-actionDeferred').click();
  await expect(tasks.getByTestId('tile-summary')).toHaveText('Showing 1 entry.');
  await pick(page, 'dashboard-due', 'Today');
  await expect(tasks.getByTestId('tile-summary')).toHaveText('No entries to show.');
  await page.screenshot({ path: shot('dashboard-key'), fullPage: true });
  await tasks.getByTestId('tile-clear-key').click();
  await expect(tasks.getByTestId('tile-active-key')).toHaveCount(0);
  await pick(page, 'dashboard-due', 'All Active Tasks');
  await expect(page).not.toHaveURL(/activeTasks\.key/);

  // Paging through the open requests of the journey's scope.
  const open = tile(page, 'openRequests');
  await open.getByTestId('tile-counts-toggle').click();
  await open.getByTestId(`tile-key-${SCOPE}`).click();
  await expect(open.getByTestId('tile-summary')).toHaveText('Showing entries 1 to 10 out of 12.');
  await open.getByTestId('tile-next').click();
  await expect(open.getByTestId('tile-summary')).toHaveText('Showing entries 11 to 12 out of 12.');
  await expect(page).toHaveURL(/openRequests\.offset=10/);
  await open.getByTestId('tile-previous').click();
  await expect(open.getByTestId('tile-summary')).toHaveText('Showing entries 1 to 10 out of 12.');

  // A shared address opens the same view.
  await page.goto('/dashboard?due=today&activeTasks.key=appointment');
  await expect(tile(page, 'activeTasks').getByTestId('tile-summary')).toHaveText(
    'Showing entries 1 to 10 out of 12.',
  );
  await page.screenshot({ path: shot('dashboard'), fullPage: true });

  // A task opens its request.
  const first = tile(page, 'activeTasks').getByTestId('dashboard-item-link').first();
  const number = (await first.textContent()) ?? '';
  await first.click();
  await expect(page).toHaveURL(new RegExp(`/requests/${number}$`));
  await expect(page.getByTestId('request-page')).toBeVisible();
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

test('a submitter downloads a result and its button is then disabled', async ({ page }) => {
  await signIn(page, 'submitter');
  // The seeded result gets a real file of its request: a download marks it only once the bytes
  // arrived (a missing file would leave the button enabled).
  const xhr = { 'X-Requested-With': 'XMLHttpRequest' };
  const upload = await page.request.post('/files', {
    headers: xhr,
    data: { name: 'gp-notes.pdf', contentType: 'application/pdf', contentLength: PDF.length },
  });
  const { key, uploadUrl } = (await upload.json()) as { key: string; uploadUrl: string };
  expect(
    (await page.request.put(uploadUrl, { headers: { 'content-type': 'application/pdf' }, data: PDF })).ok(),
  ).toBe(true);
  await withDatabase(async (client) => {
    await client.query(
      `update files set owner_type = 'request', owner_id = r.request_number
         from request_results r where r.file_key = 'dashboard-e2e-missing' and files.key = $1`,
      [key],
    );
    await client.query(`update request_results set file_key = $1 where file_key = 'dashboard-e2e-missing'`, [
      key,
    ]);
  });
  await page.goto('/results/download-files');
  await expect(page.getByTestId('download-files-page')).toBeVisible();
  const row = page.locator('[data-testid^="download-row-"]').filter({ hasText: 'GP Notes' }).first();
  await expect(row).toBeVisible();
  const button = row.getByTestId('download-button');
  await expect(button).toBeEnabled();
  await button.click();
  await expect(button).toBeDisabled();
  await page.screenshot({ path: shot('downloads'), fullPage: true });
  // Refresh: the downloaded result stays listed, its button disabled, with who downloaded it.
  await page.getByTestId('download-files-refresh').click();
  const again = page.locator('[data-testid^="download-row-"]').filter({ hasText: 'GP Notes' });
  await expect(again).toHaveCount(1);
  await expect(again.getByTestId('download-button')).toBeDisabled();
  await expect(again.getByTestId('download-done')).toContainText('Sam Submitter');
});
