import { withDatabase } from './db';
import { expect, signIn, test } from './fixtures';

// The Content-Security-Policy (issue 13) holds the whole app: across sign-in, the dashboard, a
// request page and a note written in the rich text editor, the browser reports no violation, and
// the live socket still connects.

test('a journey through the app under the security policy meets no violation', async ({ browser }) => {
  const n = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at desc limit 1`,
    );
    return r.rows[0].request_number as string;
  });
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(`console: ${message.text()}`);
  });
  // Every document of the journey reports its violations through a binding the page can call.
  await page.exposeBinding('reportCspViolation', (_source, text: string) => {
    violations.push(`event: ${text}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation;
      report(
        `${event.violatedDirective} blocked ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  const sockets: string[] = [];
  page.on('websocket', (socket) => sockets.push(socket.url()));

  const first = await page.goto('/');
  const csp = first?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).toMatch(/script-src 'self';/);
  await signIn(page, 'handler');

  await page.getByTestId('navbar').getByTestId('menu-link-dashboard').click();
  await expect(page.getByTestId('dashboard-page')).toBeVisible();
  await expect.poll(() => sockets.some((url) => url.endsWith('/__ws'))).toBe(true);

  await page.goto(`/requests/${n}`);
  await expect(page.getByTestId('request-page')).toBeVisible();
  await page.getByTestId('action-addNote').click();
  const note = page.getByTestId('panel-addNote');
  const editor = note.locator('.ProseMirror');
  await editor.click();
  await editor.pressSequentially('Checked under the security policy.');
  await page.screenshot({ path: '/tmp/csp-note.png', fullPage: false });
  await note.getByTestId('panel-submit').click();
  await expect(note).toHaveCount(0);
  await expect(page.getByTestId('request-history')).toContainText('Added a note.');
  await page.screenshot({ path: '/tmp/csp-request.png', fullPage: true });

  // Events are delivered asynchronously; give the last ones a moment to arrive.
  await page.waitForTimeout(500);
  expect(violations).toEqual([]);
  await page.close();
});
