import type { Page } from '@playwright/test';
import nodemailer from 'nodemailer';
import { withDatabase } from './db';
import { ADMIN, addNote, expect, pick, signIn, test } from './fixtures';
import { PORT } from './playwright.config';

// The open request page is live (issue 22, item 1): the handler (A) has a request open while the
// administrator (B) adds a note, a task and a result and closes it; A's page shows each within 2 s,
// without a reload. While A types a note, B's next change waits behind a notice and A's text stays.

const LIVE = { timeout: 2000 };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const shot = (name: string) => `/tmp/live-request-${name}.png`;

test('changes by another user appear on the open request page; a draft survives them', async ({
  browser,
}) => {
  // The oldest open request of the demo organisation: other journeys work on the newest.
  const n = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at asc limit 1`,
    );
    return r.rows[0].request_number as string;
  });
  const a = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  const b = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await signIn(a, 'handler');
  await signIn(b, ADMIN.username, ADMIN.password);
  await a.goto(`/requests/${n}`);
  await b.goto(`/requests/${n}`);
  // Both pages are announced: each sees the other among the viewers.
  await expect(a.getByTestId('request-viewer')).toHaveAccessibleName('Administrator');
  await expect(b.getByTestId('request-viewer')).toBeVisible();

  // A note.
  const stamp = Date.now().toString(36);
  await addNote(b, `First live note ${stamp}`);
  await expect(a.getByTestId('correspondence')).toContainText(`First live note ${stamp}`, LIVE);
  await expect(a.getByTestId('request-history')).toContainText('Added a note.', LIVE);

  // A task.
  const deferred = (p: Page) => p.locator('[data-testid="request-tasks"] [data-type="actionDeferred"]');
  const tasksBefore = await deferred(a).count();
  await b.getByTestId('action-addTask').click();
  await pick(b, 'addTask-type', 'Action Deferred');
  await b.getByTestId('panel-addTask').getByTestId('addTask-dueDate').fill('31/12/9999');
  await b.getByTestId('panel-addTask').getByTestId('panel-submit').click();
  await expect(b.getByTestId('panel-addTask')).toHaveCount(0);
  await expect(deferred(a)).toHaveCount(tasksBefore + 1, LIVE);

  // A result.
  await b.getByTestId('action-addResult').click();
  const resultPanel = b.getByTestId('panel-addResult');
  await resultPanel
    .getByTestId('file-upload')
    .locator('input[type=file]')
    .setInputFiles({ name: `live-${stamp}.pdf`, mimeType: 'application/pdf', buffer: PDF });
  await expect(resultPanel.getByTestId('file-upload')).toContainText(`live-${stamp}.pdf`);
  await pick(b, 'tag-documentType', 'Medical records');
  await resultPanel.getByTestId('panel-save').click();
  await expect(resultPanel).toHaveCount(0);
  await expect(a.getByTestId('request-results')).toContainText(`live-${stamp}.pdf`, LIVE);

  // A starts a note; B's next note comes into every part of A's page at once, and A's draft stays.
  await a.getByTestId('action-addNote').click();
  const draft = a.getByTestId('panel-addNote').locator('.ProseMirror');
  await draft.click();
  await draft.pressSequentially('Half-written thoughts of A');
  await addNote(b, `Second live note ${stamp}`);
  await expect(a.getByTestId('correspondence')).toContainText(`Second live note ${stamp}`, LIVE);
  await expect(a.getByTestId('request-history')).toContainText('Added a note.');
  await expect(a.getByTestId('changed-notice')).toHaveCount(0);
  await expect(draft).toHaveText('Half-written thoughts of A');
  await a.screenshot({ path: shot('panel-open'), fullPage: false });
  await draft.pressSequentially(', finished.');
  await a.getByTestId('panel-addNote').getByTestId('panel-submit').click();
  await expect(a.getByTestId('panel-addNote')).toHaveCount(0);
  await expect(b.getByTestId('correspondence')).toContainText('Half-written thoughts of A, finished.', LIVE);

  // A edits a part: B's next note comes in meanwhile and the edit keeps its text.
  await a.getByTestId('edit-applicant').click();
  const name = a.getByTestId('applicant-name');
  await name.fill('Name being typed by A');
  await addNote(b, `Third live note ${stamp}`);
  await expect(a.getByTestId('correspondence')).toContainText(`Third live note ${stamp}`, LIVE);
  await expect(name).toHaveValue('Name being typed by A');
  await a.getByTestId('cancel-applicant').click();

  // A opens Add Note while B closes the request: the whole page follows at once (status, tasks,
  // actions), and the panel says its action is no longer offered, its text kept.
  await a.getByTestId('action-addNote').click();
  await a.getByTestId('panel-addNote').locator('.ProseMirror').click();
  await a.getByTestId('panel-addNote').locator('.ProseMirror').pressSequentially('Too late');
  // B closes the request: A's status and offered actions follow.
  await b.getByTestId('action-closeRequest').click();
  await pick(b, 'tag-closeReason', 'Completed');
  await b.getByTestId('panel-closeRequest').getByTestId('panel-submit').click();
  await expect(b.getByTestId('request-status')).toHaveText('Closed');
  await expect(a.getByTestId('request-status')).toHaveText('Closed', LIVE);
  await expect(a.getByTestId('action-withdrawn')).toBeVisible();
  await expect(a.getByTestId('panel-addNote').locator('.ProseMirror')).toHaveText('Too late');
  await expect(a.getByTestId('action-reOpenRequest')).toBeVisible();
  await expect(a.getByTestId('action-addNote')).toHaveCount(0);
  await expect(a.locator('[data-testid="request-tasks"] [data-testid="task-complete"]')).toHaveCount(0);
  await a.getByTestId('panel-addNote').getByTestId('panel-cancel').click();
  await a.screenshot({ path: shot('closed'), fullPage: true });

  // A's dashboard follows too, within two seconds: B adds a task to another request and A's task
  // tile counts it (tiles load again at most once in two seconds, the first change at once).
  const other = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at asc limit 1`,
    );
    return r.rows[0].request_number as string;
  });
  await a.goto('/dashboard');
  const summary = a.getByTestId('tile-activeTasks').getByTestId('tile-summary');
  await expect(summary).toHaveText(/\S/);
  await a.waitForTimeout(500);
  const before = await summary.textContent();
  await b.goto(`/requests/${other}`);
  await b.getByTestId('action-addTask').click();
  await pick(b, 'addTask-type', 'Action Deferred');
  await b.getByTestId('panel-addTask').getByTestId('addTask-dueDate').fill('31/12/9999');
  await b.getByTestId('panel-addTask').getByTestId('panel-submit').click();
  await expect(b.getByTestId('panel-addTask')).toHaveCount(0);
  await expect(summary).not.toHaveText(before ?? '', { timeout: 2000 });
});

test('an inbox message open for one user shows links another makes; an open panel waits', async ({
  browser,
}) => {
  const subject = `Live inbox ${Date.now()}`;
  const mailer = nodemailer.createTransport({ host: '127.0.0.1', port: PORT + 26, secure: false });
  await mailer.sendMail({
    from: 'Dr Grey <grey@clinic.example>',
    to: 'inbox@dossier.localhost',
    subject,
    text: 'No reference in this one.',
  });
  mailer.close();
  const { id, n } = await withDatabase(async (client) => {
    let row: { id: string } | undefined;
    for (let i = 0; i < 50 && !row; i++) {
      row = (await client.query('select id from inbox_messages where subject = $1', [subject])).rows[0];
      if (!row) await new Promise((r) => setTimeout(r, 200));
    }
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at desc limit 1 offset 3`,
    );
    return { id: row?.id as string, n: r.rows[0].request_number as string };
  });
  const a = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  const b = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await signIn(a, 'handler');
  await signIn(b, ADMIN.username, ADMIN.password);
  const connected = a.waitForResponse((r) => r.url().endsWith('/notifications') && r.ok());
  await a.goto(`/inbox/messages/${id}`);
  await connected;
  await expect(a.getByTestId('inbox-message-page')).toBeVisible();
  await expect(a.getByTestId('inbox-action-unlink')).toHaveCount(0);

  // B links the message: A's page shows the link and offers Unlink.
  await b.goto(`/inbox/messages/${id}`);
  await b.getByTestId('inbox-action-link').click();
  await b.getByTestId('inbox-link-number').fill(n);
  await expect(b.getByTestId('inbox-can-link')).toBeVisible();
  await b.getByTestId('inbox-link-submit').click();
  await expect(b.getByTestId('inbox-link-row')).toContainText(n);
  await expect(a.getByTestId('inbox-link-row')).toContainText(n, LIVE);
  await expect(a.getByTestId('inbox-action-unlink')).toBeVisible(LIVE);

  // A starts linking it elsewhere; B unlinks meanwhile: A's typing stays, the notice shows.
  await a.getByTestId('inbox-action-link').click();
  await a.getByTestId('inbox-link-number').fill('ACM26');
  await b.getByTestId('inbox-action-unlink').click();
  // Linked to one request only, the panel has it chosen already.
  await expect(b.getByTestId('inbox-unlink-number')).toHaveValue(n);
  await b.getByTestId('inbox-unlink-submit').click();
  await expect(b.getByTestId('inbox-action-unlink')).toHaveCount(0);
  await expect(a.getByTestId('changed-notice')).toContainText(
    'This message was changed by someone else.',
    LIVE,
  );
  await expect(a.getByTestId('inbox-link-number')).toHaveValue('ACM26');
  await a.getByTestId('inbox-link-cancel').click();
  await expect(a.getByTestId('changed-notice')).toHaveCount(0);
  await expect(a.getByTestId('inbox-action-unlink')).toHaveCount(0);
  await a.screenshot({ path: shot('inbox-after'), fullPage: true });
});
