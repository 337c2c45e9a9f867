import { withDatabase } from './db';
import { expect, pick, signIn, test } from './fixtures';

// The new-request wizard: a submitter fills the five steps with a smart-form item type, saves a
// draft, resumes it from the drafts list and submits, landing on the receipt. The review step and
// the request page show what is asked: every answer, field, field set value and added question.

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const shot = (name: string) => test.info().outputPath(`${name}.png`);

test('a submitter runs the wizard, saves a draft, resumes it and submits', async ({ page }) => {
  // A long journey through five steps, each saved on the way.
  test.setTimeout(120_000);
  // The journey starts as a submitter without drafts (configurationEditors.spec.ts leaves one).
  await withDatabase((client) => client.query(`delete from request_drafts where user_id = 'submitter'`));
  await signIn(page, 'submitter');
  await page.goto('/requests/new');
  await expect(page.getByTestId('page-title')).toHaveText('New Request');
  await expect(page.getByTestId('drafts-none')).toBeVisible();

  // Sender: a submitter of one organisation finds it chosen, with its data loaded (the on-behalf-of
  // choices); opening the wizard saved no draft.
  await expect(page.getByTestId('wizard-organization')).toHaveValue('Acme Insurance');
  await expect(page.getByTestId('wizard-on-behalf-of')).toBeEnabled();
  await expect(page.getByTestId('wizard-next')).toBeEnabled();
  await page.screenshot({ path: shot('sender'), fullPage: true });
  await page.getByTestId('wizard-next').click();

  // Applicant: an earlier applicant is found by the search; Clear Form returns to it; Enter New
  // opens the form filled from the terms.
  await expect(page.getByTestId('wizard')).toHaveAttribute('data-step', 'applicant');
  await page.getByTestId('applicant-search-name').fill('olivia');
  await page.getByTestId('applicant-search-run').click();
  await expect(page.getByTestId('applicant-search-hit')).toHaveCount(1);
  await expect(page.getByTestId('applicant-search-hit')).toContainText('Olivia Chen');
  await page.getByTestId('applicant-search-name').fill('Jane Citizen');
  await page.getByTestId('applicant-search-new').click();
  await expect(page.getByTestId('applicant-name')).toHaveValue('Jane Citizen');
  // Next is not greyed out: pressing it names what blocks it, at the fields, and stays.
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('disabled-reason')).toHaveText('Complete the marked fields to go on.');
  await expect(page.getByTestId('applicant-dateOfBirth')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('wizard')).toHaveAttribute('data-step', 'applicant');
  await page.getByTestId('applicant-dateOfBirth').fill('29/02/1980');
  await page.getByTestId('applicant-email').fill('jane@example.com');
  await page.getByTestId('applicant-authority').locator('input[type=file]').setInputFiles({
    name: 'authority.pdf',
    mimeType: 'application/pdf',
    buffer: PDF,
  });
  await expect(page.getByTestId('applicant-authority')).toContainText('authority.pdf');
  await page.screenshot({ path: shot('applicant'), fullPage: true });
  await page.getByTestId('wizard-next').click();

  // Recipient: picked from the directory.
  await expect(page.getByTestId('wizard')).toHaveAttribute('data-step', 'recipient');
  await page.getByTestId('recipient-search-name').fill('harbourside');
  await page.getByTestId('recipient-search-run').click();
  await page.getByTestId('recipient-search-select').first().click();
  await expect(page.getByTestId('recipient-name')).toHaveValue('Harbourside Medical Centre');
  await expect(page.getByTestId('recipient-state')).toContainText('version 1');
  await page.getByTestId('wizard-next').click();

  // Content: the smart-form item type, its questions and a submitter-supplied field.
  await expect(page.getByTestId('wizard')).toHaveAttribute('data-step', 'content');
  await expect(page.getByTestId('disabled-reason')).toHaveCount(0);
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('content-itemTypes-error')).toBeVisible();
  await expect(page.getByTestId('disabled-reason')).toBeVisible();
  await page.getByTestId('item-itemGeneralPractice').check();
  await page.getByTestId('item-itemGeneralPractice-consultationNotes').getByText('Yes').click();
  await pick(page, 'item-itemGeneralPractice-period', 'Last 5 years');
  await page.getByTestId('item-itemGeneralPractice-treatingDoctor').fill('Dr Ellis');
  await page.getByTestId('item-itemGeneralPractice-treatingDoctor-exclude').check();
  await page.getByTestId('item-itemGeneralPractice-supplied-patientId').fill('P-1234');
  await page.getByTestId('item-itemDischargeSummary').check();
  await page.getByTestId('item-itemDischargeSummary-field-admission-ward').fill('Ward 7B');
  await page.getByTestId('add-question').click();
  await expect(page.getByTestId('disabled-reason')).toBeVisible();
  await page.getByTestId('additional-question-0').fill('Please include imaging reports.');
  await expect(page.getByTestId('disabled-reason')).toHaveCount(0);
  await page.getByTestId('additional-instructions-handler').fill('Call the clinic before issuing.');
  await page.getByTestId('wizard-save-draft').click();
  await expect(page.getByTestId('draft-save-state')).toContainText('Draft saved');
  await page.screenshot({ path: shot('content'), fullPage: true });

  // The draft is listed when no draft is open, and opens at the step it reached.
  await page.goto('/requests/new');
  await expect(page.getByTestId('draft-item')).toHaveCount(1);
  await expect(page.getByTestId('draft-item')).toContainText('Jane Citizen');
  await page.screenshot({ path: shot('drafts'), fullPage: true });
  await page.getByTestId('draft-open').click();
  await expect(page.getByTestId('wizard')).toHaveAttribute('data-step', 'content');
  await expect(page.getByTestId('item-itemGeneralPractice-supplied-patientId')).toHaveValue('P-1234');
  await expect(page.getByTestId('item-itemGeneralPractice-treatingDoctor')).toBeDisabled();
  await expect(page.getByTestId('additional-question-0')).toHaveValue('Please include imaging reports.');
  await page.getByTestId('wizard-next').click();

  // Submit.
  await expect(page.getByTestId('wizard')).toHaveAttribute('data-step', 'submit');
  await expect(page.getByTestId('review-applicant')).toContainText('Jane Citizen');
  // Every field entered is on the review, the applicant's email and the handler's instructions too.
  await expect(page.getByTestId('review-applicant')).toContainText('Email: jane@example.com');
  await expect(page.getByTestId('review-content')).toContainText(
    'Additional instructions to the handler: Call the clinic before issuing.',
  );
  await expect(page.getByTestId('review-content')).toContainText('Medical records — general practice');
  const asked = [
    ['Include consultation notes?', 'Yes'],
    ['Period of records', 'Last 5 years'],
    ['Practice patient ID', 'P-1234'],
    ['Ward', 'Ward 7B'],
  ] as const;
  const review = page.getByTestId('review-answers-line');
  for (const [question, answer] of asked)
    await expect(review.filter({ hasText: question })).toContainText(answer);
  await expect(page.getByTestId('review-answers')).toContainText('Hospital discharge summary');
  await expect(page.getByTestId('review-answers')).toContainText('Please include imaging reports.');
  // The excluded question is not asked; option ids are never shown.
  await expect(page.getByTestId('review-answers')).not.toContainText('treating doctor');
  await expect(page.getByTestId('review-answers')).not.toContainText('recordPeriod');
  await page.screenshot({ path: shot('submit'), fullPage: true });
  await page.getByTestId('wizard-submit').click();

  await expect(page.getByTestId('receipt-page')).toBeVisible();
  await expect(page).toHaveURL(/\/requests\/ACM\d{6}[A-Z]{3}\d{2}\/receipt$/);
  await expect(page.getByTestId('receipt-applicant')).toContainText('Jane Citizen');
  await expect(page.getByTestId('receipt-recipient')).toHaveText('Harbourside Medical Centre');
  await expect(page.getByTestId('receipt-item-types')).toContainText('Medical records — general practice');
  await page.screenshot({ path: shot('receipt'), fullPage: true });

  // The request page's Content part shows the same, in its read view and in its edit.
  const requestNumber = (await page.getByTestId('receipt-number').textContent())?.trim();
  await page.goto(`/requests/${requestNumber}`);
  const content = page.getByTestId('part-content');
  const lines = content.getByTestId('content-answers-line');
  for (const [question, answer] of asked)
    await expect(lines.filter({ hasText: question })).toContainText(answer);
  await expect(content).toContainText('Please include imaging reports.');
  await expect(content).not.toContainText('recordPeriod');
  await content.scrollIntoViewIfNeeded();
  await content.screenshot({ path: shot('request-content') });
  await page.screenshot({ path: shot('request-page'), fullPage: true });
  // The submitter may still edit the whole content: the smart form and the submitter's fields too.
  await page.getByTestId('edit-content').click();
  await expect(page.getByTestId('save-content')).toBeVisible();
  const supplied = content.getByTestId('item-itemGeneralPractice-supplied-patientId');
  await expect(supplied).toHaveValue('P-1234');
  await expect(content.getByTestId('item-itemDischargeSummary-field-admission-ward')).toHaveValue('Ward 7B');
  await supplied.fill('P-5678');
  await page.getByTestId('save-content').click();
  await expect(page.getByTestId('save-content')).toHaveCount(0);
  await expect(lines.filter({ hasText: 'Practice patient ID' })).toContainText('P-5678');

  // The draft is gone.
  await page.goto('/requests/new');
  await expect(page.getByTestId('drafts-none')).toBeVisible();
});

test('a draft keeps what was typed without Save, even when an autosave first fails', async ({ page }) => {
  await signIn(page, 'submitter');
  await page.goto('/requests/new');
  await pick(page, 'wizard-organization', 'Acme Insurance');
  await expect(page.getByTestId('wizard-on-behalf-of')).toBeEnabled();
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard')).toHaveAttribute('data-step', 'applicant');
  const draftUrl = new URL(page.url());
  expect(draftUrl.pathname).toMatch(/^\/requests\/new\/[\w-]+$/);

  // The next save of the draft meets a network failure; later ones go through.
  let failed = 0;
  await page.route('**/drafts/*', async (route) => {
    if (route.request().method() === 'PUT' && failed === 0) {
      failed++;
      await route.abort('internetdisconnected');
    } else await route.continue();
  });

  // Typed, and Save Draft is never pressed.
  await page.getByTestId('applicant-search-name').fill('Ruby Retry');
  await page.getByTestId('applicant-search-new').click();
  await expect(page.getByTestId('applicant-name')).toHaveValue('Ruby Retry');
  await page.getByTestId('applicant-dateOfBirth').fill('03/07/1975');
  const state = page.getByTestId('draft-save-state');
  await expect(state).toHaveAttribute('data-state', 'failed');
  await expect(state).toContainText('Trying again shortly');
  // Nobody touches anything: the autosave is tried again and succeeds.
  await expect(state).toHaveAttribute('data-state', 'idle', { timeout: 10_000 });
  await expect(state).toContainText('Draft saved');
  expect(failed).toBe(1);

  // From here nothing more reaches the server, so what the reload shows was saved by the autosave.
  await page.unroute('**/drafts/*');
  await page.route('**/drafts/*', (route) =>
    route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.continue(),
  );
  await page.goto(`${draftUrl.pathname}?step=applicant`);
  await expect(page.getByTestId('wizard')).toHaveAttribute('data-step', 'applicant');
  await expect(page.getByTestId('applicant-name')).toHaveValue('Ruby Retry');
  await expect(page.getByTestId('applicant-dateOfBirth')).toHaveValue('03/07/1975');
  await page.reload();
  await expect(page.getByTestId('applicant-name')).toHaveValue('Ruby Retry');
  await page.unroute('**/drafts/*');

  // Leave no draft behind for other journeys.
  const draftId = draftUrl.pathname.split('/').pop();
  const removed = await page.request.delete(`/drafts/${draftId}`, {
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  expect(removed.ok()).toBe(true);
});
