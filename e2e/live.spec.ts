import { withDatabase } from './db';
import { expect, signIn, test } from './fixtures';

// Live updates reach the browser without a reload. A notification and a task are committed the way
// the server commits them: a row plus a NOTIFY on the live channel in the same transaction.

async function commitLive(
  table: 'notifications' | 'tasks',
  insert: string,
  values: unknown[],
  userId: string,
) {
  await withDatabase(async (db) => {
    await db.query('begin');
    const row = (await db.query(`${insert} returning *`, values)).rows[0];
    const message =
      table === 'notifications'
        ? {
            $type: 'notification',
            notificationId: String(row.id),
            type: row.type,
            target: row.target,
            text: row.text,
            createdAt: row.created_at.toISOString(),
            createdByDisplayName: null,
            acknowledgedAt: null,
          }
        : {
            $type: 'workflowTask',
            taskId: String(row.id),
            type: row.type,
            subject: row.subject,
            requestNumber: row.request_number,
            messageId: null,
            dueAt: row.due_at.toISOString(),
            isOverdue: false,
            isAssignedTo: row.assigned_to,
          };
    await db.query(`select pg_notify('dossier_live', $1)`, [
      JSON.stringify({ kind: 'message', userIds: [userId], message }),
    ]);
    await db.query('commit');
  });
}

test('a notification and an assigned task arrive live; the notification is marked read', async ({ page }) => {
  // The live connection is open once notifications are loaded: they are (re)loaded on every open.
  const connected = page.waitForResponse((r) => r.url().endsWith('/notifications') && r.ok());
  await signIn(page, 'handler');
  await connected;
  const tasksBefore = Number(await page.getByTestId('tasks-count').textContent());
  await expect(page.getByTestId('notification-count')).toHaveText('0');

  await commitLive(
    'notifications',
    `insert into notifications (user_id, type, target, text) values ($1, 'mention', '/requests/ACM251122NNN07/', 'Morgan mentioned you')`,
    ['handler'],
    'handler',
  );
  await expect(page.getByTestId('notification-count')).toHaveText('1');
  await page.getByTestId('notification-bell').click();
  const item = page.getByTestId('notification-item').first();
  await expect(item).toContainText('Morgan mentioned you');
  await expect(item.getByTestId('notification-request-link')).toHaveAttribute(
    'href',
    '/requests/ACM251122NNN07',
  );
  await item.getByTestId('notification-mark-read').click();
  await expect(page.getByTestId('notification-count')).toHaveText('0');
  await page.keyboard.press('Escape');

  await commitLive(
    'tasks',
    `insert into tasks (type, subject, request_number, scope, assigned_to, due_at) values ('issueRequest', 'Jane Citizen', 'ACM251122NNN07', '/', $1, now() + interval '2 days')`,
    ['handler'],
    'handler',
  );
  await expect(page.getByTestId('tasks-count')).toHaveText(String(tasksBefore + 1));
  await page.getByTestId('tasks-toggle').click();
  const task = page.getByTestId('task-item').last();
  await expect(task).toContainText('Jane Citizen');
  await expect(task.getByTestId('task-link')).toHaveAttribute('href', '/requests/ACM251122NNN07');
});
