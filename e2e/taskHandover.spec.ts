import { withDatabase } from './db';
import { expect, signIn, test } from './fixtures';

// Issue 22 item 5: someone takes or hands over a task. Harper claims an open Quality Assure Result
// task on the request page and assigns it to Hayden, who sees it arrive in the task overlay without
// a reload and hands it back from there. Quinn lost the skill after Harper's picker was read, so
// assigning to Quinn is refused and the reason shows on the field.

const shot = (name: string) => `/tmp/tasks-handover-${name}.png`;

/** Two more handlers at the root (the demo's password), trained for Quality Assure Result only. */
async function setUp() {
  return withDatabase(async (client) => {
    for (const [id, name] of [
      ['hayden', 'Hayden Handler'],
      ['quinn', 'Quinn Quality'],
    ]) {
      await client.query(
        `insert into users (id, name, email, scope, country, language, password_hash, email_confirmed_at)
         select $1, $2, $1 || '@dossier.example', scope, country, language, password_hash, now()
         from users where id = 'handler' on conflict do nothing`,
        [id, name],
      );
      await client.query(
        `insert into user_roles (user_id, role, scope) values ($1, 'c:roles:handler', '/')
         on conflict do nothing`,
        [id],
      );
      await client.query(
        `insert into task_skills (user_id, task_type, level, status)
         values ($1, 'qualityAssureResult', 'trained', 'active')
         on conflict (user_id, task_type) do update set level = 'trained', status = 'active'`,
        [id],
      );
    }
    const request = await client.query(
      `select request_number, scope from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at desc limit 1`,
    );
    const { request_number: n, scope } = request.rows[0] as { request_number: string; scope: string };
    const task = await client.query(
      `insert into tasks (type, subject, request_number, scope, notice, due_at)
       values ('qualityAssureResult', 'Handover check', $1, $2, 'Quality assure the result.', now() + interval '2 days')
       returning id`,
      [n, scope],
    );
    return { n, taskId: String(task.rows[0].id) };
  });
}

/** Takes the two extra handlers out of the assignment again, for the journeys that follow. */
async function tearDown() {
  await withDatabase((client) =>
    client.query(`delete from task_skills where user_id in ('hayden', 'quinn')`),
  );
}

test.afterAll(tearDown);

test('a handler claims a task and assigns it on; the assignee sees it live; a user without the skill is refused with the reason', async ({
  browser,
}) => {
  const { n, taskId } = await setUp();

  // Hayden, in a browser of its own, watches the task overlay.
  const hayden = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const connected = hayden.waitForResponse((r) => r.url().endsWith('/notifications') && r.ok());
  await signIn(hayden, 'hayden');
  await connected;
  await hayden.getByTestId('tasks-toggle').click();
  const overlay = hayden.getByTestId('tasks-overlay');
  await expect(overlay).toBeVisible();
  await expect(overlay.locator(`[data-task-id="${taskId}"]`)).toHaveCount(0);

  // Harper claims the unassigned task on the request page.
  const harper = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await signIn(harper, 'handler');
  await harper.goto(`/requests/${n}`);
  const item = harper.locator(`[data-testid="task-item"][data-task-id="${taskId}"]`);
  await expect(item).toContainText('Unassigned');
  await expect(item.getByTestId('task-release')).toHaveCount(0);
  await item.getByTestId('task-claim').click();
  await expect(item).toContainText('Harper Handler');
  await expect(item.getByTestId('task-claim')).toHaveCount(0);
  await expect(item.getByTestId('task-release')).toBeVisible();
  await expect(harper.getByTestId('request-history')).toContainText(
    'Harper Handler claimed Quality Assure Result.',
  );
  await harper.getByTestId('request-tasks').screenshot({ path: shot('task-list') });

  // Assign… lists the trained handlers; Harper gives the task to Hayden.
  await item.getByTestId('task-assign').click();
  await item.getByTestId('task-assign-user').click();
  await expect(harper.getByRole('option', { name: /Quinn Quality/ })).toBeVisible();
  await harper.getByRole('option', { name: /Hayden Handler/ }).click();
  await harper.getByTestId('request-tasks').screenshot({ path: shot('assign-picker') });
  await item.getByTestId('task-assign-submit').click();
  await expect(item).toContainText('Hayden Handler');
  await expect(harper.getByTestId('request-history')).toContainText(
    'Harper Handler assigned Quality Assure Result to Hayden Handler.',
  );

  // Hayden's overlay gains it without a reload.
  const pushed = overlay.locator(`[data-task-id="${taskId}"]`);
  await expect(pushed).toBeVisible();
  await expect(pushed).toContainText('Handover check');
  await hayden.screenshot({ path: shot('overlay') });

  // Quinn loses the skill after Harper's picker was read: the server refuses, and says why.
  await item.getByTestId('task-assign').click();
  await item.getByTestId('task-assign-user').click();
  await withDatabase((client) =>
    client.query(`delete from task_skills where user_id = 'quinn' and task_type = 'qualityAssureResult'`),
  );
  await harper.getByRole('option', { name: /Quinn Quality/ }).click();
  await item.getByTestId('task-assign-submit').click();
  await expect(item).toContainText('Quinn Quality has no trained skill for Quality Assure Result.');
  await harper.getByTestId('request-tasks').screenshot({ path: shot('refused') });
  await item.getByTestId('task-assign-cancel').click();
  await expect(item).toContainText('Hayden Handler');

  // Hayden hands it back from the overlay: it leaves Hayden's list (Harper, still trained, gets it).
  await pushed.getByTestId('task-release').click();
  await expect(pushed).toHaveCount(0);
  await harper.reload();
  await expect(item).toContainText('Harper Handler');
  await expect(harper.getByTestId('request-history')).toContainText(
    'Hayden Handler released Quality Assure Result; it went to Harper Handler.',
  );
});
