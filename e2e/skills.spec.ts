import { withDatabase } from './db';
import { ADMIN, expect, signIn, test } from './fixtures';

// Task skills: a manager makes the handler trained, then active, for a task type on the two skills
// pages; status stays locked while untrained. And presence: two people on one request page see each
// other, live.

const skillOf = (userId: string, type: string) =>
  withDatabase(async (db) => {
    const { rows } = await db.query(
      'select level, status from task_skills where user_id = $1 and task_type = $2',
      [userId, type],
    );
    return rows[0] as { level: string; status: string } | undefined;
  });

test('a manager sets a handler trained and active for a task type', async ({ page }) => {
  await withDatabase((db) =>
    db.query(`delete from task_skills where user_id = 'handler' and task_type = 'payInvoice'`),
  );
  await signIn(page, 'manager');
  await page.goto('/tasks/skills/status');
  await page.getByTestId('task-skills-search').fill('handler');
  await page.getByRole('button', { name: 'Find' }).click();
  const status = page.getByTestId('skill-handler-payInvoice');
  await expect(status).toBeDisabled();

  await page.getByTestId('task-skills-mode').getByText('Levels').click();
  await expect(page.getByRole('heading', { name: 'Task Skill Levels' })).toBeVisible();
  await expect(page.getByTestId('task-skills-save')).toBeDisabled();
  await page.getByTestId('skill-handler-payInvoice').check();
  await page.getByTestId('task-skills-save').click();
  await expect(page.getByTestId('task-skills-save')).toBeDisabled();
  await expect(page.getByTestId('skill-handler-payInvoice')).toBeChecked();
  expect(await skillOf('handler', 'payInvoice')).toEqual({ level: 'trained', status: 'inactive' });

  await page.getByTestId('task-skills-mode').getByText('Status').click();
  await expect(page.getByRole('heading', { name: 'Task Skill Status' })).toBeVisible();
  await expect(page.getByTestId('skill-handler-payInvoice')).toBeEnabled();
  await page.getByTestId('skill-handler-payInvoice').check();
  await page.screenshot({ path: test.info().outputPath('e2-skills.png'), fullPage: true });
  await page.getByTestId('task-skills-save').click();
  await expect(page.getByTestId('task-skills-save')).toBeDisabled();
  await expect(page.getByTestId('skill-handler-payInvoice')).toBeChecked();
  expect(await skillOf('handler', 'payInvoice')).toEqual({ level: 'trained', status: 'active' });
});

test('the request page shows who else has it open, live', async ({ browser }) => {
  const requestNumber = await withDatabase(async (db) => {
    const { rows } = await db.query(
      `select request_number from requests where scope like '/org/acme/%' limit 1`,
    );
    return rows[0].request_number as string;
  });
  const handler = await browser.newPage();
  const admin = await browser.newPage();
  await signIn(handler, 'handler', undefined, `/requests/${requestNumber}`);
  await expect(handler.getByTestId('request-page')).toBeVisible();
  await expect(handler.getByTestId('request-presence')).toHaveCount(0);

  await signIn(admin, ADMIN.username, ADMIN.password, `/requests/${requestNumber}`);
  await expect(admin.getByTestId('request-page')).toBeVisible();
  await expect(handler.getByTestId('request-viewer')).toHaveAccessibleName(/Admin|admin/);
  await expect(admin.getByTestId('request-viewer')).toBeVisible();
  await handler.screenshot({ path: test.info().outputPath('e2-presence.png') });

  // The administrator leaves the page: the handler sees nobody else any more.
  await admin.getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(handler.getByTestId('request-presence')).toHaveCount(0);
  await handler.close();
  await admin.close();
});
