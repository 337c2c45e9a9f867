import { withDatabase } from './db';
import { ADMIN, expect, signIn, test } from './fixtures';

// The access log (issue 36): a handler opens a request; the administrator opens the request's
// Access tab and finds the handler's visit, by name, as a page view; the Access Log report of the
// request lists the handler among its readers.

const shot = (name: string) => test.info().outputPath(`${name}.png`);

test('an administrator sees on the Access tab the handler who just opened the request', async ({
  browser,
}) => {
  const { n, handlerName } = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
        order by submitted_at desc offset 2 limit 1`,
    );
    const u = await client.query(`select name from users where id = 'handler'`);
    return { n: r.rows[0].request_number as string, handlerName: u.rows[0].name as string };
  });

  const handler = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await signIn(handler, 'handler');
  await handler.goto(`/requests/${n}`);
  await expect(handler.getByTestId('page-title')).toContainText(n);
  // A handler works the request but does not see who looked at it.
  await expect(handler.getByTestId('request-history')).toBeVisible();
  await expect(handler.getByTestId('access-tab')).toHaveCount(0);
  await handler.close();

  const admin = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  await signIn(admin, ADMIN.username, ADMIN.password);
  await admin.goto(`/requests/${n}`);
  await expect(admin.getByTestId('page-title')).toContainText(n);
  await admin.getByTestId('access-tab').click();
  const entries = admin.getByTestId('access-entry');
  // Newest first: the administrator's own visit, then the handler's.
  await expect(entries.filter({ hasText: handlerName }).first()).toContainText('Opened the request');
  await expect(entries.first()).toContainText('Page');
  await admin.getByTestId('request-access').scrollIntoViewIfNeeded();
  await admin.screenshot({ path: shot('access-tab'), fullPage: true });
  // The accounting of disclosures of the applicant, a PDF to print.
  const href = await admin.getByTestId('access-disclosures').getAttribute('href');
  const pdf = await admin.request.get(href ?? '');
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');

  // The Access Log report of that request: the handler among its readers.
  await admin.goto(`/reports/access-log?filter.request=${n}`);
  await admin.getByTestId('report-run').click();
  await expect(admin.getByTestId('report-row').filter({ hasText: handlerName })).toHaveCount(1, {
    timeout: 15_000,
  });
  await admin.screenshot({ path: shot('access-log-report'), fullPage: true });
  await admin.close();
});
