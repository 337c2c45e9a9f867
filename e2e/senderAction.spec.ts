import { withDatabase } from './db';
import { addNote, expect, pick, signIn, test } from './fixtures';

// The sender's side of the workflow: a handler asks the sender to act (a Sender Action Required
// task, mailed to the sender); the submitter finds it on the request page and answers with a note;
// the workflow completes the sender's task and gives the handler a Sender Action Response task,
// which appears on the handler's open page without a reload.

const shot = (name: string) => test.info().outputPath(`${name}.png`);

test('a submitter answers a sender action with a note and the handler gets the response live', async ({
  browser,
}) => {
  // Two people, two sign-ins and the engine in between: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  const n = await withDatabase(async (client) => {
    const r = await client.query(
      // Not the newest: requestPage.spec.ts closes and re-opens that one.
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
       and submitted_by = 'submitter' order by submitted_at desc offset 1 limit 1`,
    );
    return r.rows[0].request_number as string;
  });

  const staff = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await signIn(staff, 'handler');
  await staff.goto(`/requests/${n}`);
  await expect(staff.getByTestId('request-page')).toBeVisible();
  await staff.getByTestId('action-addTask').click();
  const panel = staff.getByTestId('panel-addTask');
  await pick(staff, 'addTask-type', 'Sender Action Required');
  await panel.getByTestId('addTask-notice').fill('Please sign the new authority form.');
  await panel.getByTestId('panel-submit').click();
  await expect(panel).toHaveCount(0);
  const required = staff.locator('[data-testid="task-item"][data-type="senderActionRequired"]').first();
  await expect(required).toBeVisible();
  // The sender's task: nobody on staff holds it, and no fallback is raised.
  await expect(staff.locator('[data-testid="task-item"][data-type="fallback"]')).toHaveCount(0);
  // The sender was mailed (from the senderActionRequired template).
  await expect
    .poll(() =>
      withDatabase(async (client) => {
        const r = await client.query(
          `select subject from mail_outbox where request_number = $1 and "to" = 'sam@acme.example'
           order by id desc limit 1`,
          [n],
        );
        return (r.rows[0]?.subject as string | undefined) ?? '';
      }),
    )
    .toBe(`Request ${n} needs your action`);

  const sender = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  await signIn(sender, 'submitter');
  await sender.goto(`/requests/${n}`);
  const theirs = sender.locator('[data-testid="task-item"][data-type="senderActionRequired"]').first();
  await expect(theirs).toContainText('Please sign the new authority form.');
  await expect(theirs.getByTestId('task-complete')).toBeVisible();
  await sender.screenshot({ path: shot('sender-task'), fullPage: true });
  await addNote(sender, 'The signed authority form is attached to our file.');
  // The workflow completed the sender's task: the page reloads by itself.
  await expect(theirs.getByTestId('task-complete')).toHaveCount(0);
  await expect(theirs.getByTestId('task-state')).toHaveText(/completed/i);

  // The handler's page, open all along, shows the response task assigned to the handler.
  const response = staff.locator('[data-testid="task-item"][data-type="senderActionResponse"]').first();
  await expect(response).toBeVisible();
  await expect(response).toContainText('Harper Handler');
  await staff.screenshot({ path: shot('handler-response'), fullPage: true });
});
