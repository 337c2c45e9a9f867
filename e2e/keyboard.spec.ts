import type { Locator, Page } from '@playwright/test';
import { DEMO_PASSWORD, expect, test } from './fixtures';

// A handler's main work by keyboard alone (issue 15): sign in, open a request from the assigned
// tasks, add a note, complete a task. Every control is reached with Tab, shows where focus is,
// and focus comes back to the button that opened a panel once the panel closes.

/** Presses Tab until `target` (or something inside it) has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement))) {
      return;
    }
  }
  throw new Error(`Tab never reached ${target}`);
}

/** The focused control shows it: an outline that is not none. */
async function expectFocusVisible(page: Page) {
  const outline = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el ? getComputedStyle(el).outlineStyle : 'none';
  });
  expect(outline).not.toBe('none');
}

test('a handler opens a request from the task list, adds a note and completes a task without the mouse', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin/);
  await tabTo(page, page.getByTestId('signin-username'));
  await page.keyboard.type('handler');
  await tabTo(page, page.getByTestId('signin-password'));
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
  await expect(page.getByTestId('tasks-count')).not.toHaveText('0');

  // The assigned tasks: the overlay takes focus; the first task's link opens its request.
  await tabTo(page, page.getByTestId('tasks-toggle'));
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');
  const overlay = page.getByTestId('tasks-overlay');
  await expect(overlay).toBeFocused();
  const link = overlay
    .getByTestId('task-link')
    .filter({ has: page.locator('xpath=self::*[contains(@href, "/requests/")]') })
    .first();
  const href = (await link.getAttribute('href')) as string;
  await tabTo(page, link);
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByTestId('request-page')).toBeVisible();
  await expect(overlay).toHaveCount(0);

  // Add a note: the panel takes focus, the editor takes typing, the button commits, and focus
  // returns to Add Note when the panel closes.
  const addNote = page.getByTestId('action-addNote');
  await tabTo(page, addNote);
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('panel-addNote');
  await expect(panel).toBeFocused();
  const editor = panel.locator('[contenteditable="true"]');
  await tabTo(page, editor);
  const text = `Called the recipient, keyboard only ${Date.now() % 100000}`;
  await page.keyboard.type(text);
  await tabTo(page, panel.getByTestId('panel-submit'));
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');
  await expect(panel).toHaveCount(0);
  await expect(addNote).toBeFocused();
  await expect(page.getByTestId('request-page')).toContainText(text);

  // Complete the handler's current task on this request.
  const current = page
    .locator('[data-testid="request-tasks"], [data-testid="request-recipient-tasks"]')
    .getByTestId('task-item')
    .filter({ hasText: 'Current Assigned Task' })
    .filter({ has: page.getByTestId('task-complete') })
    .first();
  // The row by its list and task id: once completed it no longer has the button the filter needs.
  const [list, taskId] = await current.evaluate((el) => [
    el.closest('[data-testid^="request-"]')?.getAttribute('data-testid'),
    el.getAttribute('data-task-id'),
  ]);
  const row = page.getByTestId(list as string).locator(`[data-testid="task-item"][data-task-id="${taskId}"]`);
  const complete = row.getByTestId('task-complete');
  await tabTo(page, complete, 200);
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');
  await expect(row.getByTestId('task-state')).toHaveText(/completed/i);
  await expect(complete).toHaveCount(0);
});
