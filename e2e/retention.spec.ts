import { randomBytes } from 'node:crypto';
import { createRequestNumber } from '@dossier/core';
import { withDatabase } from './db';
import { ADMIN, expect, signIn, test } from './fixtures';

// Retention and erasure on request (issue 36). The demo keeps files 84 months and personal data
// 120 months after closing. The journey adds three requests of its own to Acme (one closed eleven
// years ago, and two of an applicant who asks for erasure: one closed, one open), previews and runs
// retention, erases the applicant, and removes its requests again so later journeys meet the demo
// as it was.

const made: string[] = [];

/** A copy of one of Acme's demo requests with its own number, applicant and dates, and a stored file. */
async function addRequest(
  applicant: { name: string; dateOfBirth: string },
  status: string,
  closedAt: Date | null,
) {
  const submittedAt = new Date((closedAt ?? new Date()).getTime() - 30 * 86_400_000);
  const n = createRequestNumber('ACM', submittedAt);
  made.push(n);
  await withDatabase(async (client) => {
    await client.query(
      `insert into requests (request_number, scope, status, applicant, applicant_name, applicant_date_of_birth,
         recipient, recipient_id, recipient_name, content, tags, submitted_at, submitted_by, closed_at, closed_by,
         last_updated_at, last_activity_at)
       select $1, scope, $2, $3::jsonb, $4, $5, recipient, recipient_id, recipient_name, content, '{}', $6,
         submitted_by, $7, case when $7::timestamptz is null then null else 'handler' end, $6, $6
       from requests where scope = '/org/acme/' order by submitted_at limit 1`,
      [
        n,
        status,
        JSON.stringify({ ...applicant, country: 'AU', tags: {} }),
        applicant.name,
        applicant.dateOfBirth,
        submittedAt,
        closedAt,
      ],
    );
    await client.query(
      `insert into files (key, name, content_type, declared_size, size, owner_type, owner_id, created_at, uploaded_at)
       values ($1, $2, 'application/pdf', 100, 100, 'request', $3, now(), now())`,
      [randomBytes(16).toString('hex'), `${applicant.name}.pdf`, n],
    );
  });
  return n;
}

test.afterAll(async () => {
  await withDatabase(async (client) => {
    await client.query(`delete from files where owner_type = 'request' and owner_id = any($1)`, [made]);
    await client.query(`delete from events where aggregate_type = 'request' and aggregate_id = any($1)`, [
      made,
    ]);
    await client.query('delete from requests where request_number = any($1)', [made]);
  });
});

test('an administrator previews and runs retention on the demo, and erases an applicant on request', async ({
  page,
}) => {
  const elevenYearsAgo = new Date(Date.now() - 11 * 366 * 86_400_000);
  const old = await addRequest(
    { name: 'Olive Oldfield', dateOfBirth: '1950-03-04' },
    'closed',
    elevenYearsAgo,
  );
  const riley = { name: 'Riley Erasure', dateOfBirth: '1970-05-06' };
  const rileyClosed = await addRequest(riley, 'closed', new Date(Date.now() - 40 * 86_400_000));
  const rileyOpen = await addRequest(riley, 'open', null);

  await signIn(page, ADMIN.username, ADMIN.password, '/dashboard');
  await page.getByTestId('menu-link-retention').click();
  await expect(page).toHaveURL(/\/admin\/retention$/);
  await expect(page.getByTestId('page-title')).toHaveText('Retention');
  const acme = page.getByTestId('retention-due-row').filter({ hasText: '/org/acme/' });
  await expect(acme).toContainText('84 months');
  await expect(acme).toContainText('120 months');
  // Only the request closed eleven years ago is due: its one file, and its applicant.
  await expect(page.getByTestId('retention-total-requests-files')).toHaveText('1');
  await expect(page.getByTestId('retention-total-files')).toHaveText('1');
  await expect(page.getByTestId('retention-total-de-identify')).toHaveText('1');
  // The access log is kept six years: the demo's year of it has no month due.
  await expect(page.getByTestId('retention-access-log')).toContainText('Kept 72 months');
  await expect(page.getByTestId('retention-access-log-due')).toHaveText('No month is due.');
  await page.screenshot({ path: 'test-results/retention-preview.png', fullPage: true });

  await page.getByTestId('retention-run-now').click();
  const run = page.getByTestId('retention-run').first();
  await expect(run).toContainText('Run now');
  await expect(run).toContainText(old);
  await expect(page.getByTestId('retention-total-files')).toHaveText('0');
  await expect(page.getByTestId('retention-total-de-identify')).toHaveText('0');

  // The request says what happened to it; its applicant is gone.
  await run.getByRole('link', { name: old }).click();
  await expect(page.getByTestId('request-files-removed')).toBeVisible();
  await expect(page.getByTestId('request-de-identified')).toBeVisible();
  await expect(page.getByTestId('request-page')).not.toContainText('Olive Oldfield');

  // A legal hold: placed with a reason (required), shown beside the status, and removed.
  await page.getByTestId('action-placeLegalHold').click();
  await expect(page.getByTestId('panel-submit')).toBeDisabled();
  await page.getByTestId('placeLegalHold-reason').fill('Subpoena 2026/118');
  await page.screenshot({ path: 'test-results/retention-hold-panel.png' });
  await page.getByTestId('panel-submit').click();
  await expect(page.getByTestId('request-legal-hold')).toBeVisible();
  await page.getByTestId('action-removeLegalHold').click();
  await page.getByTestId('panel-submit').click();
  await expect(page.getByTestId('request-legal-hold')).toHaveCount(0);
  await expect(page.getByTestId('action-placeLegalHold')).toBeVisible();

  // The retention comes from Acme's configuration entry.
  await page.goto('/admin/configuration/edit/orgAcme/retention');
  await expect(page.getByTestId('retention-files-months')).toHaveValue('84');
  await expect(page.getByTestId('retention-personal-months')).toHaveValue('120');
  await page.screenshot({ path: 'test-results/retention-configuration.png' });

  // Erasure on request: the closed request is erased at once, the open one left and said so.
  await page.goto('/admin/retention');
  await page.getByTestId('retention-erasure-link').click();
  await expect(page.getByTestId('page-title')).toHaveText('Erasure on request');
  await page.getByTestId('erasure-name').fill(riley.name);
  await page.getByTestId('erasure-date-of-birth').fill('06/05/1970');
  await page.getByTestId('erasure-find').click();
  await expect(page.getByTestId('erasure-match')).toHaveCount(2);
  await expect(page.getByTestId('erasure-match').filter({ hasText: rileyClosed })).toContainText(
    'Will be erased',
  );
  await expect(page.getByTestId('erasure-match').filter({ hasText: rileyOpen })).toContainText(
    'Left: still open',
  );
  await page.getByTestId('erasure-requested-by').fill('Riley Erasure, by letter of 1 December');
  await page.getByTestId('erasure-reason').fill('Asked to have their data erased');
  await page.screenshot({ path: 'test-results/retention-erasure.png', fullPage: true });
  await page.getByTestId('erasure-erase').click();
  const done = page.getByTestId('erasure-done');
  await expect(done).toContainText('1 request(s) de-identified and 1 file(s) removed.');
  await expect(done).toContainText(rileyClosed);
  await expect(page.getByTestId('erasure-done-left')).toHaveText(
    `${rileyOpen} was left as it was (still open).`,
  );
  await page.screenshot({ path: 'test-results/retention-erased.png', fullPage: true });

  const rows = await withDatabase((client) =>
    client.query('select request_number, applicant_name from requests where request_number = any($1)', [
      [rileyClosed, rileyOpen],
    ]),
  );
  const names = Object.fromEntries(rows.rows.map((r) => [r.request_number, r.applicant_name]));
  expect(names).toEqual({ [rileyClosed]: '(de-identified)', [rileyOpen]: 'Riley Erasure' });

  // The demo's request on legal hold says so on its page.
  const held = await withDatabase((client) =>
    client.query(`select request_number from requests where legal_hold_at is not null limit 1`),
  );
  await page.goto(`/requests/${held.rows[0].request_number}`);
  await expect(page.getByTestId('request-legal-hold')).toBeVisible();
  await expect(page.getByTestId('action-removeLegalHold')).toBeVisible();
  await page.screenshot({ path: 'test-results/retention-held.png' });
});
