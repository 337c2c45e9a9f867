import { request as playwrightRequest } from '@playwright/test';
import { DEMO_PASSWORD, expect, signIn, test } from './fixtures';
import { PORT } from './playwright.config';

// The workflow reaches the handler live: a submitter submits a request (through the API, as the
// wizard does), the engine adds its issueRequest task and assigns it to the demo handler, who is
// trained for it, and the task appears in the handler's assigned-tasks overlay without a reload.
// The handler then completes it from the request page and the overlay drops it.

const XHR = { 'x-requested-with': 'XMLHttpRequest' };

async function submitAsSubmitter(applicantName: string): Promise<string> {
  const api = await playwrightRequest.newContext({ baseURL: `http://localhost:${PORT}` });
  try {
    const signin = await api.post('/signin', {
      headers: XHR,
      form: { username: 'submitter', password: DEMO_PASSWORD },
    });
    expect(signin.ok()).toBe(true);
    // The signed authority, uploaded as the wizard's file field does.
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const file = await api.post('/files', {
      headers: XHR,
      data: {
        name: 'authority.pdf',
        contentType: 'application/pdf',
        contentLength: pdf.length,
        publicReadAccess: false,
      },
    });
    expect(file.ok(), await file.text()).toBe(true);
    const { key, uploadUrl } = (await file.json()) as { key: string; uploadUrl: string };
    const put = await api.put(uploadUrl, { headers: { 'content-type': 'application/pdf' }, data: pdf });
    expect(put.ok(), await put.text()).toBe(true);
    const res = await api.post('/requests', {
      headers: XHR,
      data: {
        sender: { organization: '/org/acme/' },
        applicant: {
          name: applicantName,
          dateOfBirth: '1980-02-29',
          country: 'AU',
          reference1: 'WF-1',
          authority: { key, name: 'authority.pdf' },
        },
        recipient: {
          name: 'Northside Clinic',
          phone: '02 9000 1111',
          email: 'records@northside.example',
          tags: { kind: 'hospital' },
        },
        content: {
          itemTypes: [{ id: 'itemGeneralPractice', smartFormAnswers: {} }],
          additionalQuestions: [],
        },
      },
    });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).requestNumber as string;
  } finally {
    await api.dispose();
  }
}

test('a trained handler receives a new request’s issueRequest task live and completes it', async ({
  page,
}) => {
  // The live connection is open once notifications are loaded.
  const connected = page.waitForResponse((r) => r.url().endsWith('/notifications') && r.ok());
  await signIn(page, 'handler');
  await connected;
  // The seeded requests' tasks arrive just after start; wait until the count settles.
  await expect(page.getByTestId('tasks-count')).not.toHaveText('0');
  const before = Number(await page.getByTestId('tasks-count').textContent());

  const applicant = `Wanda Workflow ${Date.now() % 100000}`;
  const n = await submitAsSubmitter(applicant);

  await expect(page.getByTestId('tasks-count')).toHaveText(String(before + 1), { timeout: 10_000 });
  await page.getByTestId('tasks-toggle').click();
  const item = page.getByTestId('task-item').filter({ hasText: applicant });
  await expect(item).toContainText(`Issue Request: ${applicant}`);
  await expect(item.getByTestId('task-link')).toHaveAttribute('href', `/requests/${n}`);
  await page.screenshot({ path: test.info().outputPath('e1-overlay.png') });

  await item.getByTestId('task-link').click();
  await expect(page).toHaveURL(new RegExp(`/requests/${n}$`));
  const row = page
    .getByTestId('request-recipient-tasks')
    .getByTestId('task-item')
    .filter({ hasText: 'Issue Request' });
  await expect(row.getByText('Current Assigned Task')).toBeVisible();
  await expect(row.getByTestId('task-mark-in-progress')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('e1-request-tasks.png'), fullPage: true });
  await row.getByTestId('task-complete').click();
  await expect(row.getByTestId('task-state')).toHaveText(/completed/i);
  await expect(row.getByTestId('task-complete')).toHaveCount(0);
  await expect(page.getByTestId('tasks-count')).toHaveText(String(before));
});
