import type { Page, Request } from '@playwright/test';
import { withDatabase } from './db';
import { ADMIN, expect, signIn, test } from './fixtures';

// An action on the request page costs one round trip (issue 16): the action's answer is the
// request view as it now is, and the live push of the same change, which reaches the page a moment
// later, finds the page already holding it. The handler's page is a known viewer of the request
// (the administrator's page lists it), so the push does come: the journey sees it arrive.

/** Calls of the app to the server: the view and API requests, not scripts, styles or the socket. */
const isServerCall = (request: Request) => ['fetch', 'xhr'].includes(request.resourceType());

/** The server calls the page makes from `act` until well past the follow debounce (300 ms). */
async function callsOf(page: Page, act: () => Promise<void>): Promise<string[]> {
  const calls: string[] = [];
  const count = (request: Request) => {
    if (isServerCall(request)) calls.push(`${request.method()} ${new URL(request.url()).pathname}`);
  };
  page.on('request', count);
  await act();
  await page.waitForTimeout(1500);
  page.off('request', count);
  return calls;
}

test('adding a note costs one request to the server, though its live push reaches the page', async ({
  browser,
}) => {
  // The second-newest open request of the demo organisation: other journeys work the newest and the
  // oldest.
  const n = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at desc offset 1 limit 1`,
    );
    return r.rows[0].request_number as string;
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  const other = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  const pushes: string[] = [];
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => {
      if (typeof payload === 'string' && payload.includes('"requestChanged"')) pushes.push(payload);
    }),
  );
  await signIn(page, 'handler');
  await signIn(other, ADMIN.username, ADMIN.password);
  await page.goto(`/requests/${n}`);
  await other.goto(`/requests/${n}`);
  // The server knows the handler's page shows the request: it will be told of the change.
  await expect(other.getByTestId('request-viewer').and(other.getByLabel('Harper Handler'))).toBeVisible();
  await expect(page.getByTestId('request-viewer').and(page.getByLabel('Administrator'))).toBeVisible();

  await page.getByTestId('action-addNote').click();
  const panel = page.getByTestId('panel-addNote');
  const editor = panel.locator('.ProseMirror');
  await editor.click();
  const text = `One round trip ${Date.now().toString(36)}`;
  await editor.pressSequentially(text);

  const calls: string[] = [];
  const count = (request: Request) => {
    if (isServerCall(request)) calls.push(`${request.method()} ${new URL(request.url()).pathname}`);
  };
  page.on('request', count);
  const pushesBefore = pushes.length;
  await panel.getByTestId('panel-submit').click();
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId('correspondence')).toContainText(text);
  await expect(page.getByTestId('request-history')).toContainText('Added a note.');
  // The push of the change arrives (the other page shows the note through it) …
  await expect(other.getByTestId('correspondence')).toContainText(text);
  await expect.poll(() => pushes.length).toBeGreaterThan(pushesBefore);
  // … and, well past the follow debounce (300 ms), has made the page fetch nothing.
  await page.waitForTimeout(1500);
  page.off('request', count);
  expect(calls).toEqual([`POST /requests/${n}/actions/addNote`]);
  await page.close();
  await other.close();
});

test('claiming and completing a task, and editing a note, from the request page cost one request each', async ({
  page,
}) => {
  // An unassigned Quality Assure Result task that stands for no result, so it may be completed by
  // hand, on the same request as above.
  const { n, taskId } = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number, scope from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at desc offset 1 limit 1`,
    );
    const { request_number: n, scope } = r.rows[0] as { request_number: string; scope: string };
    const task = await client.query(
      `insert into tasks (type, subject, request_number, scope, notice, due_at)
       values ('qualityAssureResult', 'Round trip check', $1, $2, 'Quality assure the result.', now() + interval '2 days')
       returning id`,
      [n, scope],
    );
    return { n, taskId: String(task.rows[0].id) };
  });
  await signIn(page, 'handler');
  await page.goto(`/requests/${n}`);
  const item = page.locator(`[data-testid="task-item"][data-task-id="${taskId}"]`);
  await expect(item).toContainText('Unassigned');

  const claim = await callsOf(page, async () => {
    await item.getByTestId('task-claim').click();
    await expect(item).toContainText('Harper Handler');
    await expect(page.getByTestId('request-history')).toContainText(
      'Harper Handler claimed Quality Assure Result.',
    );
  });
  expect(claim).toEqual([`POST /tasks/${taskId}/claim`]);

  const complete = await callsOf(page, async () => {
    await item.getByTestId('task-complete').click();
    await expect(item.getByTestId('task-state')).toHaveText(/completed/i);
  });
  expect(complete).toEqual([`POST /tasks/${taskId}/complete`]);

  // A note of the handler's own, then its edit.
  await page.getByTestId('action-addNote').click();
  const panel = page.getByTestId('panel-addNote');
  await panel.locator('.ProseMirror').click();
  const text = `Note to edit ${Date.now().toString(36)}`;
  await panel.locator('.ProseMirror').pressSequentially(text);
  await panel.getByTestId('panel-submit').click();
  await expect(panel).toHaveCount(0);
  const note = page.getByTestId('correspondence-item').filter({ hasText: text });
  await expect(note).toHaveCount(1);
  await page.waitForTimeout(1500);

  await note.getByTestId('correspondence-edit').click();
  await note.getByTestId('correspondence-content').locator('.ProseMirror').click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' Edited.');
  const edit = await callsOf(page, async () => {
    await note.getByTestId('correspondence-save').click();
    await expect(note.getByTestId('correspondence-body')).toHaveText(`${text} Edited.`);
    await expect(note.getByTestId('correspondence-edited')).toContainText('Harper Handler');
  });
  expect(edit).toHaveLength(1);
  expect(edit[0]).toMatch(new RegExp(`^POST /requests/${n}/correspondence/[0-9a-f-]{36}$`));
});
