import { withDatabase } from './db';
import { ADMIN, expect, pick, signIn, test } from './fixtures';

// The request page: a handler adds an urgent note mentioning a colleague (the administrator), adds
// a task, closes and re-opens the request; the colleague finds the mention among its notifications.

const shot = (name: string) => test.info().outputPath(`${name}.png`);

test('a handler notes urgently with a mention, adds a task, closes and re-opens; the colleague is told', async ({
  browser,
}) => {
  const { n, street, postal } = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number, recipient->>'streetAddress' as street, recipient->>'postalAddress' as postal
         from requests where status <> 'closed' and scope like '/org/acme/%'
        order by submitted_at desc limit 1`,
    );
    return { n: r.rows[0].request_number as string, street: r.rows[0].street, postal: r.rows[0].postal };
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await signIn(page, 'handler');
  await page.goto(`/requests/${n}`);
  await expect(page.getByTestId('request-page')).toBeVisible();
  await expect(page.getByTestId('page-title')).toContainText(n);
  await expect(page.getByTestId('part-kpi')).toBeVisible();
  // The recipient's street and postal addresses each under their own label.
  await expect(page.getByTestId('recipient-street-address')).toHaveText(street ?? '—');
  await expect(page.getByTestId('recipient-postal-address')).toHaveText(postal ?? '—');
  await page.screenshot({ path: shot('page'), fullPage: true });

  // Urgent note mentioning the administrator, picked from the suggestions after two characters.
  await page.getByTestId('action-addNote').click();
  const note = page.getByTestId('panel-addNote');
  await expect(page.getByTestId('edit-applicant')).toHaveCount(0);
  const editor = note.locator('.ProseMirror');
  await editor.click();
  await editor.pressSequentially('Please call the clinic today @Ad');
  // The keyboard picks too: the arrows move the highlight, Enter takes the highlighted one.
  const suggestions = note.getByTestId('mention-suggestion');
  await expect(suggestions.first()).toHaveAttribute('aria-selected', 'true');
  const count = await suggestions.count();
  for (let i = 0; i < count; i++) {
    if (await suggestions.nth(i).filter({ hasText: 'Administrator' }).count()) break;
    await page.keyboard.press('ArrowDown');
  }
  await expect(note.locator('[data-testid="mention-suggestion"][aria-selected="true"]')).toContainText(
    'Administrator',
  );
  await page.keyboard.press('Enter');
  await expect(editor).toContainText('@[Administrator](admin)');
  await expect(note.getByTestId('mention-suggestions')).toHaveCount(0);
  await note.getByTestId('addNote-urgent').check();
  await page.screenshot({ path: shot('note-panel'), fullPage: false });
  await note.getByTestId('panel-submit').click();
  await expect(note).toHaveCount(0);
  await expect(page.getByTestId('request-history')).toContainText(
    'Added an urgent note mentioning Administrator.',
  );
  await expect(page.getByTestId('request-tasks')).toContainText('Sender Urgent Note');

  // A task without a due date (31/12/9999 shows as ∞) and the default notice.
  await page.getByTestId('action-addTask').click();
  const task = page.getByTestId('panel-addTask');
  await pick(page, 'addTask-type', 'Action Deferred');
  await task.getByTestId('addTask-dueDate').fill('31/12/9999');
  await task.getByTestId('panel-submit').click();
  await expect(task).toHaveCount(0);
  const deferred = page.locator('[data-testid="task-item"][data-type="actionDeferred"]').first();
  await expect(deferred.getByTestId('task-due')).toHaveText('∞');

  // Close: Cancel first, then for real with the required reason.
  await page.getByTestId('action-closeRequest').click();
  await expect(page.getByTestId('panel-closeRequest').getByTestId('panel-submit')).toBeDisabled();
  await page.getByTestId('panel-cancel').click();
  await expect(page.getByTestId('panel-closeRequest')).toHaveCount(0);
  await page.getByTestId('action-closeRequest').click();
  await pick(page, 'tag-closeReason', 'Completed');
  await page.getByTestId('panel-closeRequest').getByTestId('panel-submit').click();
  await expect(page.getByTestId('request-status')).toHaveText('Closed');
  await expect(page.getByTestId('action-reOpenRequest')).toBeVisible();
  await expect(page.getByTestId('action-closeRequest')).toHaveCount(0);
  await expect(page.getByTestId('edit-applicant')).toHaveCount(0);
  await expect(page.getByTestId('request-history')).toContainText(
    'Closed the request (Close Reason: Completed).',
  );

  await page.getByTestId('action-reOpenRequest').click();
  await pick(page, 'tag-reOpenReason', 'Sender query');
  await page.getByTestId('panel-reOpenRequest').getByTestId('panel-submit').click();
  await expect(page.getByTestId('request-status')).not.toHaveText('Closed');
  await expect(page.getByTestId('request-history')).toContainText(
    'Re-opened the request (Re-open Reason: Sender query).',
  );
  await expect(page.getByTestId('edit-applicant')).toBeVisible();
  await page.screenshot({ path: shot('after'), fullPage: true });

  // The hover preview of the request in the find-requests list.
  await page.goto('/requests/find');
  await page.getByTestId('search-requestNumber').fill(n);
  await page.getByTestId('search-submit').click();
  await page.getByTestId('search-hit-link').first().hover();
  const preview = page.getByTestId('request-hover-preview');
  await expect(preview).toContainText(n);
  await expect(preview).toContainText('The request has been re-opened.');
  await page.screenshot({ path: shot('hover'), fullPage: false });
  await page.mouse.move(5, 5);
  await expect(preview).toHaveCount(0);
  await page.close();

  // The colleague sees the mention.
  const colleague = await browser.newPage();
  await signIn(colleague, ADMIN.username, ADMIN.password);
  await colleague.getByTestId('notification-bell').click();
  const item = colleague
    .getByTestId('notification-item')
    .filter({ hasText: `mentioned you in a note on request ${n}` });
  await expect(item).toBeVisible();
  await item.getByTestId('notification-request-link').click();
  await expect(colleague).toHaveURL(new RegExp(`/requests/${n}$`));
  await expect(colleague.getByTestId('request-page')).toBeVisible();
  await colleague.close();
});

test('an action panel open on one request is not carried over to the next request', async ({ browser }) => {
  const [a, b] = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
        order by submitted_at desc limit 2`,
    );
    return r.rows.map((row) => row.request_number as string);
  });
  const page = await browser.newPage();
  await signIn(page, 'handler');
  await page.goto(`/requests/${a}`);
  await page.getByTestId('action-addNote').click();
  await expect(page.getByTestId('panel-addNote')).toBeVisible();
  // In-app navigation (as Back or a link does), so the page component stays mounted.
  await page.evaluate((path) => {
    window.history.pushState({}, '', path);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/requests/${b}`);
  await expect(page.getByTestId('page-title')).toContainText(b ?? '');
  await expect(page.getByTestId('panel-addNote')).toHaveCount(0);
  await expect(page.getByTestId('action-addNote')).toBeEnabled();
  await page.close();
});

test("a request whose tasks are all the recipient's shows no empty Tasks list above them, and names its item types", async ({
  page,
}) => {
  const n = await withDatabase(async (client) => {
    const r = await client.query(
      `select r.request_number from requests r
        where exists (select 1 from tasks t where t.request_number = r.request_number)
          and not exists (select 1 from tasks t where t.request_number = r.request_number
            and t.type not in ('issueRequest', 'confirmIssuedRequest', 'followUp', 'appointment', 'appointmentReminder'))
          and jsonb_array_length(r.content->'itemTypes') > 0
        order by r.submitted_at desc limit 1`,
    );
    return r.rows[0].request_number as string;
  });
  await signIn(page, 'handler');
  await page.goto(`/requests/${n}`);
  await expect(page.getByTestId('request-recipient-tasks').getByTestId('task-item').first()).toBeVisible();
  await expect(page.getByTestId('request-tasks')).toHaveCount(0);
  await expect(page.getByTestId('request-page')).not.toContainText(/item[A-Z][a-z]+[A-Z]/);
});
