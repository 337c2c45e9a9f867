import { inflateSync } from 'node:zlib';
import { expect as baseExpect, type Page } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { ADMIN, pick, signIn, test } from './fixtures';

// Issue 18, the configuration editors' remaining items: the decimal and time-of-day inputs, the
// preview of a long unsaved smart form, the smaller fixes (webhook URL, invoice file name example,
// a refused save naming its fields) and what a person expects beyond the specification.

// Each journey runs against a built app on a shared 2-core machine: pages may take a while.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 240_000 });

async function addChild(page: Page, name: string, id: string, type?: string) {
  await page.getByTestId('add-child-name').fill(name);
  await page.getByTestId('add-child-id').fill(id);
  if (type) await pick(page, 'add-child-type', type);
  await page.getByTestId('add-child-button').click();
  // A nested id's colon is escaped in the address (colours%3Ared).
  await expect(page).toHaveURL(new RegExp(`(/|%3A)${id}\\?`));
}

async function typeQuestion(page: Page, path: string, text: string) {
  await page.getByTestId(`question-text-${path}`).locator('.ProseMirror').click();
  await page.keyboard.type(text);
}

/** The text drawn in a PDF: its content streams inflated, hex strings decoded. */
function pdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  let text = '';
  for (const match of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    const [, stream = ''] = match; // the pattern's only group always takes part
    let content: string;
    try {
      content = inflateSync(Buffer.from(stream, 'latin1')).toString('latin1');
    } catch {
      content = stream;
    }
    for (const [, hex = ''] of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g))
      text += Buffer.from(hex, 'hex').toString('latin1');
    for (const lit of content.matchAll(/\(((?:\\.|[^\\)])*)\)\s*Tj/g)) text += lit[1];
    text += '\n';
  }
  return text;
}

test('a due time of day is typed, checked and kept as a time', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration/edit/root/taskFollowUp');
  const time = page.getByTestId('due-time-of-day');
  await time.fill('25:00');
  await time.blur();
  await expect(page.getByText('Enter a time such as 09:30.')).toBeVisible();
  await expect(time).toHaveValue('25:00');
  await time.fill('17:30');
  await time.blur();
  await expect(page.getByText('Enter a time such as 09:30.')).toHaveCount(0);
  await page.getByTestId('save-entry').click();
  // Reload only once the save is stored: a grey Save means no more than that it was sent.
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await page.reload();
  // Stored as PT17H30M, shown in the locale's time format.
  await expect(page.getByTestId('due-time-of-day')).toHaveValue(/5:30\s?pm/i);
});

test('a smart form decimal answer takes its question precision in the wizard', async ({ page }, testInfo) => {
  // A retry makes an item type of its own: the first attempt's is saved already.
  const id = `dentalRecords${testInfo.retry || ''}`;
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration/edit/root/c');
  await addChild(page, `Dental records ${testInfo.retry || ''}`.trim(), id, 'Request item type');
  await page.getByTestId('add-question-smartForm').click();
  await typeQuestion(page, 'smartForm.0', 'Years of records to include');
  await pick(page, 'answer-type-smartForm.0', 'Decimal number');
  await page.getByTestId('decimal-precision-smartForm.0').fill('1');
  await page.getByTestId('decimal-precision-smartForm.0').blur();
  await page.getByTestId('save-entry').click();
  await expect(page).toHaveURL(new RegExp(`/admin/configuration/edit/root/${id}$`));
  await page.context().clearCookies();

  await signIn(page, 'submitter');
  await page.goto('/requests/new');
  await pick(page, 'wizard-organization', 'Acme Insurance');
  await expect(page.getByTestId('wizard-on-behalf-of')).toBeEnabled();
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('applicant-search-name').fill('Dana Decimal');
  await page.getByTestId('applicant-search-new').click();
  await page.getByTestId('applicant-dateOfBirth').fill('01/02/1980');
  await page
    .getByTestId('applicant-authority')
    .locator('input[type=file]')
    .setInputFiles({
      name: 'authority.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
    });
  await expect(page.getByTestId('applicant-authority')).toContainText('authority.pdf');
  await page.getByTestId('wizard-next').click();
  await page.getByTestId('recipient-search-name').fill('harbourside');
  await page.getByTestId('recipient-search-run').click();
  await page.getByTestId('recipient-search-select').first().click();
  await page.getByTestId('wizard-next').click();
  await expect(page.getByTestId('wizard')).toHaveAttribute('data-step', 'content');

  await page.getByTestId(`item-${id}`).check();
  const answer = page.locator(`input[inputmode="decimal"][data-testid^="item-${id}-"]`);
  await expect(answer).toBeVisible();
  // Two decimals where the question takes one: kept as typed, with the rule, not committed.
  await answer.fill('2.55');
  await answer.blur();
  await expect(page.getByText('A number with at most 1 decimal.')).toBeVisible();
  await expect(answer).toHaveValue('2.55');
  await answer.fill('abc');
  await expect(page.getByText('A number with at most 1 decimal.')).toBeVisible();
  await answer.fill('2.5');
  await answer.blur();
  await expect(page.getByText('A number with at most 1 decimal.')).toHaveCount(0);
  await expect(answer).toHaveValue('2.5');
});

test('the preview of a long unsaved smart form shows the form on the screen, titled with its name', async ({
  page,
  context,
}) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration/edit/root/c');
  await addChild(page, 'Physio records', 'physioRecords', 'Request item type');
  await page.getByTestId('add-question-smartForm').click();
  await typeQuestion(page, 'smartForm.0', 'Saved question');
  await page.getByTestId('save-entry').click();
  await expect(page).toHaveURL(/\/admin\/configuration\/edit\/root\/physioRecords$/);
  // Edit the saved entry afresh, as a person coming back to it would.
  await page.goto('/admin/configuration/edit/root/physioRecords');
  await expect(page.getByTestId('question-smartForm.0')).toContainText('Saved question');

  // Unsaved: a new name and questions long enough for an address of far more than 8,000 characters.
  await page.getByTestId('entry-name').fill('Physiotherapy records');
  await page.getByTestId('entry-name').blur();
  const filler = 'Describe every treatment session in detail, with dates and the treating physiotherapist. ';
  for (let i = 1; i <= 4; i++) {
    await page.getByTestId('add-question-smartForm').click();
    await expect(page.getByTestId(`question-smartForm.${i}`)).toBeVisible();
    await page.getByTestId(`question-text-smartForm.${i}`).locator('.ProseMirror').click();
    await page.keyboard.insertText(`Unsaved question ${i}. ${filler.repeat(25)}`);
  }
  await page.getByTestId('question-text-smartForm.0').click();
  const formData = await page
    .locator('[data-testid="smart-form-preview-form"] input[name="formData"]')
    .inputValue();
  expect(formData.length).toBeGreaterThan(8000);

  const [response, tab] = await Promise.all([
    context.waitForEvent(
      'response',
      (r) => r.url().endsWith('/files/SMARTFORM') && r.request().method() === 'POST',
    ),
    context.waitForEvent('page'),
    page.getByTestId('smart-form-preview').click(),
  ]);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  // Chromium hands the tab's PDF to its viewer, so the bytes are fetched again with exactly the
  // fields the Preview button posted (the form on the screen).
  const fields = await page
    .locator('[data-testid="smart-form-preview-form"] input[type="hidden"]')
    .evaluateAll((inputs) =>
      Object.fromEntries(inputs.map((i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).value])),
    );
  expect(response.request().postData()).toBe(new URLSearchParams(fields).toString());
  const again = await page.request.post('/files/SMARTFORM', {
    form: fields,
    headers: { origin: new URL(page.url()).origin },
  });
  expect(again.status()).toBe(200);
  const bytes = await again.body();
  const pdf = await PDFDocument.load(bytes);
  expect(pdf.getTitle()).toBe('Physiotherapy records');
  const text = pdfText(bytes);
  expect(text).toContain('Unsaved question 4');
  expect(text).toContain('Physiotherapy records');
  expect(text).not.toContain('physioRecords');
  await tab.close();
  // Nothing was saved by previewing.
  await expect(page.getByTestId('save-entry')).toBeEnabled();
});

test('a webhook URL without its slashes keeps its text and says why', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration/edit/root/c');
  await addChild(page, 'Partner hook', 'partnerHook', 'API webhook');
  const url = page.getByTestId('webhook-url');
  await url.fill('https:example.com');
  await url.blur();
  await page.waitForTimeout(400);
  await expect(url).toHaveValue('https:example.com');
  await expect(
    page.getByText('Write two slashes after the protocol, such as https://example.com.'),
  ).toBeVisible();
  await url.fill('http://example.com/hook');
  await url.blur();
  await expect(page.getByText('Only https URLs are taken here, such as https://example.com.')).toBeVisible();
  await expect(url).toHaveValue('http://example.com/hook');
});

test('the invoice file name example names an invoice', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration/edit/root/requestSettings');
  await expect(page.getByTestId('customResultFileName')).toHaveAttribute(
    'placeholder',
    '${request.requestNumber}-result',
  );
  await expect(page.getByTestId('customInvoiceFileName')).toHaveAttribute(
    'placeholder',
    '${request.requestNumber}-invoice-${invoice.number}',
  );
});

test('a refused save names the field in words and takes the person to it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration/edit/root/c');
  await addChild(page, 'Imaging records', 'imagingRecords', 'Request item type');
  await page.getByTestId('add-field-set').click();
  await page.getByTestId('save-entry').click();
  const banner = page.getByTestId('error-banner');
  await expect(banner).toContainText('Field set 1, id: Required.');
  await expect(banner).not.toContainText('data.fieldSets');
  await expect(page.getByTestId('field-set-id-0')).toBeFocused();
  await expect(page.getByTestId('field-set-id-0')).toBeInViewport();
});

test('template placeholder problems are listed under the body', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration/edit/root/templateIssueRequest');
  const body = page.getByTestId('template-body').locator('.ProseMirror');
  await body.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' ${request.nope} and ${task.dueAt bogus}');
  const problems = page.getByTestId('placeholder-problems');
  await expect(problems).toBeVisible();
  await expect(problems.getByRole('listitem')).toHaveCount(2);
  await expect(problems).toContainText('${request.nope}');
  await expect(problems).toContainText('Unknown placeholder path "request.nope"');
});

test('a template previews as it reads for a real request, unsaved changes included', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration/edit/root/templateIssueRequest');
  const body = page.getByTestId('template-body').locator('.ProseMirror');
  await body.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Preview check for ${request.applicant.name}.');
  await page.getByTestId('template-preview-open').click();
  const preview = page.getByTestId('template-preview');
  await expect(preview.getByTestId('template-preview-request')).toContainText(
    /request [A-Z]{3}\d{6}[A-Z]{3}\d{2},/,
  );
  await expect(preview.getByTestId('template-preview-body')).toContainText(/Preview check for \S+ \S+\./);
  await expect(preview).not.toContainText('${request.applicant.name}');
  await page.screenshot({ path: test.info().outputPath('template-preview.png'), fullPage: true });
});

test('Add child entry is offered only for entry types that have children', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration/edit/root/templateIssueRequest');
  await expect(page.getByTestId('configuration-entry')).toBeVisible();
  await expect(page.getByTestId('add-child-name')).toHaveCount(0);
  await expect(page.getByTestId('children-section')).toHaveCount(0);
  await page.goto('/admin/configuration/edit/root/taskFollowUp');
  await expect(page.getByTestId('configuration-entry')).toBeVisible();
  await expect(page.getByTestId('add-child-name')).toHaveCount(0);
  // An option list takes options.
  await page.goto('/admin/configuration/edit/root/recordPeriod');
  await expect(page.getByTestId('children-section')).toContainText('Last 5 years');
  await expect(page.getByTestId('add-child-name')).toBeVisible();
});

test('an entry is deleted after a confirmation, refused while in use; an empty configuration too', async ({
  page,
}) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration');
  await page.getByTestId('add-scope-path').fill('/org/acme/branch/closing/');
  await page.getByTestId('add-configuration').click();
  await expect(page).toHaveURL(/\/admin\/configuration\/edit\/orgAcmeBranchClosing\/c\?/);
  await page.getByTestId('entry-name').fill('Closing branch');
  await page.getByTestId('save-entry').click();
  await expect(page).toHaveURL(/\/admin\/configuration\/edit\/orgAcmeBranchClosing\/c$/);
  await addChild(page, 'Shades', 'shades', 'Smart form option');
  await page.getByTestId('save-entry').click();
  await expect(page).toHaveURL(/\/shades$/);
  await addChild(page, 'Red', 'red');
  await page.getByTestId('save-entry').click();
  await expect(page).toHaveURL(/\/shades%3Ared$/);

  // The list still has its option: refused, with what depends on it.
  await page.goto('/admin/configuration/edit/orgAcmeBranchClosing/shades');
  await page.getByTestId('delete-entry').click();
  await page.getByTestId('delete-entry-confirm').click();
  await expect(page.getByTestId('error-banner')).toContainText('its child "Red"');
  // The option goes (after the question), then the list, then the configuration.
  await page.goto('/admin/configuration/edit/orgAcmeBranchClosing/shades:red');
  await page.getByTestId('delete-entry').click();
  await expect(page.getByRole('dialog')).toContainText('Delete "Red" for good?');
  await page.getByTestId('delete-entry-confirm').click();
  await expect(page).toHaveURL(/\/admin\/configuration\/edit\/orgAcmeBranchClosing\/shades$/);
  await expect(page.getByTestId('children-section')).not.toContainText('Red');
  await page.getByTestId('delete-entry').click();
  await page.getByTestId('delete-entry-confirm').click();
  await expect(page).toHaveURL(/\/admin\/configuration\/edit\/orgAcmeBranchClosing\/c$/);
  await page.getByTestId('delete-entry').click();
  await page.getByTestId('delete-entry-confirm').click();
  await expect(page).toHaveURL(/\/admin\/configuration$/);
  await expect(page.getByTestId('configuration-table')).not.toContainText('/org/acme/branch/closing/');
});
