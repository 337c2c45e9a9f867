import { withDatabase } from './db';
import { expect, signIn, test } from './fixtures';
import { PORT } from './playwright.config';

// Issue 22 item 12: at a 1280 px wide window the request page's task list keeps every column,
// the State column with its badge-like state and its controls included, inside its panel.

// The tasks made here go again, for the journeys that count tasks after this one.
test.afterAll(() =>
  withDatabase((client) => client.query(`delete from tasks where subject = 'Width check'`)),
);

test('the task list fits its panel at 1280 px, State column included', async ({ browser }) => {
  const n = await withDatabase(async (client) => {
    const request = await client.query(
      `select request_number, scope from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at desc limit 1`,
    );
    const { request_number: n, scope } = request.rows[0] as { request_number: string; scope: string };
    // The widest states: overdue and in progress for the handler, completed late with its time.
    await client.query(
      `insert into tasks (type, subject, request_number, scope, notice, due_at, assigned_to, marked_in_progress_at)
       values ('qualityAssureResult', 'Width check', $1, $2, 'Quality assure the result before the deadline.',
               now() - interval '2 days', 'handler', null),
              ('fallback', 'Width check', $1, $2, 'Assign the request.', now() + interval '2 days', 'handler', now())`,
      [n, scope],
    );
    await client.query(
      `insert into tasks (type, subject, request_number, scope, due_at, completed_at, completed_by, was_overdue)
       values ('qualityAssureResult', 'Width check', $1, $2, now() - interval '3 days', now(), 'handler', true)`,
      [n, scope],
    );
    return n;
  });
  const page = await browser.newPage({
    baseURL: `http://localhost:${PORT}`,
    viewport: { width: 1280, height: 900 },
  });
  await signIn(page, 'handler');
  await page.goto(`/requests/${n}`);
  const list = page.getByTestId('request-tasks');
  await expect(list.getByTestId('task-item').first()).toBeVisible();
  await list.scrollIntoViewIfNeeded();
  await list.screenshot({ path: test.info().outputPath('task-list-1280.png') });
  const overhang = await list.evaluate((panel) => {
    const inner =
      panel.getBoundingClientRect().right - Number.parseFloat(getComputedStyle(panel).paddingRight);
    const cells = [...panel.querySelectorAll('th, td, [data-testid="task-state"]')];
    return Math.max(0, ...cells.map((c) => c.getBoundingClientRect().right - inner));
  });
  expect(overhang).toBeLessThanOrEqual(0.5);

  // Issue 33 item 9: the user picker of Assign… stays inside the card too.
  await list.getByTestId('task-assign').first().click();
  const picker = list.getByTestId('task-assign-user');
  await expect(picker).toBeVisible();
  await list.screenshot({ path: test.info().outputPath('task-list-1280-assign.png') });
  const pickerOverhang = await list.evaluate((panel) => {
    const inner =
      panel.getBoundingClientRect().right - Number.parseFloat(getComputedStyle(panel).paddingRight);
    const parts = [...panel.querySelectorAll('[data-testid="task-handover"] *')];
    return Math.max(0, ...parts.map((c) => c.getBoundingClientRect().right - inner));
  });
  expect(pickerOverhang).toBeLessThanOrEqual(0.5);
  await page.close();
});
