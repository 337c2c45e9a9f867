import { generateKeyPairSync } from 'node:crypto';
import type { Page } from '@playwright/test';
import { ADMIN, expect, signIn, test } from './fixtures';

// The configuration journeys of issue 4: a configuration per scope with an override of a root
// template and its revert; a request item type with a nested smart form and a table question and
// its PDF preview; an API key from a pasted RSA public key.

async function chooseOption(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function addChild(page: Page, name: string, id: string, type?: string) {
  await page.getByTestId('add-child-name').fill(name);
  await page.getByTestId('add-child-id').fill(id);
  if (type) await chooseOption(page, 'add-child-type', type);
  await page.getByTestId('add-child-button').click();
  await expect(page.getByTestId('configuration-entry')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/${id}\\?`));
}

test('a configuration per scope overrides a root template for its scope only, then reverts', async ({
  page,
}) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration');
  await expect(page.getByTestId('configuration-table')).toBeVisible();
  const scopePath = page.getByTestId('add-scope-path');

  // The demo already has /org/acme/: a duplicate is refused before asking the server.
  await scopePath.fill('org/acme');
  await expect(page.getByText('A configuration for this scope path already exists.')).toBeVisible();
  await expect(page.getByTestId('add-configuration')).toBeDisabled();

  // A branch below it gets its own configuration through the add form.
  await scopePath.fill('org/acme/branch/sydney');
  await page.getByTestId('add-configuration').click();
  await expect(page).toHaveURL(/\/admin\/configuration\/edit\/orgAcmeBranchSydney\/c\?/);
  await expect(page.getByTestId('root-scope-path')).toHaveValue('/org/acme/branch/sydney/');
  await page.getByTestId('entry-name').fill('Acme Sydney');
  await page.getByTestId('save-entry').click();
  await expect(page).toHaveURL(/\/admin\/configuration\/edit\/orgAcmeBranchSydney\/c$/);
  await expect(page.getByTestId('child-templateIssueRequest')).toContainText('Inherited');

  // Override the root's issueRequest template in /org/acme/.
  await page.goto('/admin/configuration/edit/orgAcme/templateIssueRequest');
  await expect(page.getByTestId('inherited-badge')).toHaveText(/Inherited from \//i);
  await expect(page.getByTestId('revert-entry')).toHaveCount(0);
  const body = page.getByTestId('template-body').locator('.ProseMirror');
  // Into the last paragraph, at its end (a click in the middle of a long body lands elsewhere).
  const atEnd = async () => {
    await body.locator('p').last().click();
    await page.keyboard.press('Control+End');
  };
  await atEnd();
  await page.keyboard.type(' Acme wants ${request.nope} it fast.');
  await expect(page.getByTestId('placeholder-problem')).toHaveText('${request.nope}');
  await page.getByTestId('save-entry').click();
  await expect(page.getByTestId('template-body-error')).toContainText(
    'Unknown placeholder path "request.nope"',
  );
  await atEnd();
  for (let i = 0; i < ' it fast.'.length + '${request.nope}'.length + 1; i++)
    await page.keyboard.press('Backspace');
  await page.keyboard.type(' by ${request.dueAt date}.');
  await expect(page.getByTestId('placeholder-problem')).toHaveCount(0);
  await page.getByTestId('save-entry').click();
  await expect(page.getByTestId('inherited-badge')).toHaveCount(0);
  await expect(page.getByTestId('revert-entry')).toBeVisible();

  // Effective for /org/acme/ and below, not for /org/globex/.
  await page.goto('/admin/configuration/edit/orgAcmeBranchSydney/templateIssueRequest');
  await expect(page.getByTestId('inherited-badge')).toHaveText(/Inherited from \/org\/acme\//i);
  await expect(page.getByTestId('template-body')).toContainText('Acme wants by');
  await page.goto('/admin/configuration/edit/orgGlobex/templateIssueRequest');
  await expect(page.getByTestId('inherited-badge')).toHaveText(/Inherited from \/$/i);
  await expect(page.getByTestId('template-body')).not.toContainText('Acme wants');

  // Revert to inherited removes the override.
  await page.goto('/admin/configuration/edit/orgAcme/templateIssueRequest');
  await page.getByTestId('revert-entry').click();
  await expect(page.getByTestId('inherited-badge')).toHaveText(/Inherited from \/$/i);
  await expect(page.getByTestId('template-body')).not.toContainText('Acme wants');
  await expect(page.getByTestId('revert-entry')).toHaveCount(0);
});

test('a request item type with a nested smart form and a table question opens as a PDF', async ({
  page,
  context,
}) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration/edit/root/c');
  await addChild(page, 'GP records', 'gpRecords', 'Request item type');
  // Neither a smart form nor a PDF yet: both editors are offered.
  await expect(page.getByTestId('smart-form-editor')).toBeVisible();
  await expect(page.getByTestId('static-pdf-editor')).toBeVisible();

  await page.getByTestId('add-question-smartForm').click();
  await page.getByTestId('question-text-smartForm.0').locator('.ProseMirror').click();
  await page.keyboard.type('Did the applicant see a GP in the last 5 years?');
  await chooseOption(page, 'answer-type-smartForm.0', 'Yes or no');
  // With a smart form only its editor remains.
  await expect(page.getByTestId('static-pdf-editor')).toHaveCount(0);

  await page.getByTestId('add-question-smartForm.0.nestedForm').click();
  await page.getByTestId('question-text-smartForm.0.nestedForm.0').locator('.ProseMirror').click();
  await page.keyboard.type('List the visits');
  await chooseOption(page, 'answer-type-smartForm.0.nestedForm.0', 'Table');
  await page.getByTestId('add-column-smartForm.0.nestedForm.0.tableColumns').click();
  await page.getByTestId('column-name-smartForm.0.nestedForm.0.tableColumns.0').fill('Date');
  await page.getByTestId('add-column-smartForm.0.nestedForm.0.tableColumns').click();
  await page.getByTestId('column-name-smartForm.0.nestedForm.0.tableColumns.1').fill('Doctor');
  // A parent question cannot be removed while it has children.
  await expect(page.getByTestId('remove-question-smartForm.0')).toBeDisabled();
  await page.getByTestId('question-text-smartForm.0').click();

  await page.getByTestId('save-entry').click();
  await expect(page).toHaveURL(/\/admin\/configuration\/edit\/root\/gpRecords$/);
  await expect(page.getByTestId('question-smartForm.0')).toContainText('Did the applicant see a GP');

  // Preview posts the form on the screen into a new tab.
  const [response, tab] = await Promise.all([
    context.waitForEvent(
      'response',
      (r) => r.url().endsWith('/files/SMARTFORM') && r.request().method() === 'POST',
    ),
    context.waitForEvent('page'),
    page.getByTestId('smart-form-preview').click(),
  ]);
  await expect(tab).toHaveURL(/\/files\/SMARTFORM$/);
  expect(response.status()).toBe(200);
  // Chromium hands the bytes to its PDF viewer; configurationEditors.spec.ts reads them again.
  expect(response.headers()['content-type']).toBe('application/pdf');
});

test('an API key shows a pasted RSA public key as an RSA PUBLIC KEY block', async ({ page }) => {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = publicKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration/edit/root/c');
  await addChild(page, 'Partner key', 'partnerKey', 'API key');
  const input = page.getByTestId('api-key-public-key');

  await input.fill('-----BEGIN RSA PUBLIC KEY-----\nnot a key\n-----END RSA PUBLIC KEY-----');
  await input.blur();
  await expect(page.getByText('The key is not base64.')).toBeVisible();

  // Pasted as bare base64 (the body of the block), shown back as the block.
  const base64 = pem.replace(/-----[^-]+-----|\s/g, '');
  await input.fill(base64);
  await input.blur();
  await expect(input).toHaveValue(/^-----BEGIN RSA PUBLIC KEY-----\n/);
  await expect(input).toHaveValue(/-----END RSA PUBLIC KEY-----$/);
  await page.getByLabel('requestRead').check();
  await page.getByTestId('save-entry').click();
  await expect(page).toHaveURL(/\/admin\/configuration\/edit\/root\/partnerKey$/);
  await page.reload();
  await expect(page.getByTestId('api-key-public-key')).toHaveValue(pem.trim());
});

test('over 50 children get a filter; leaving with unsaved edits asks first', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration');
  const headers = { 'x-requested-with': 'XMLHttpRequest' };
  const save = (id: string, name: string) =>
    page.request.post(`/admin/configuration/edit/root/${id}`, {
      headers,
      data: { name, order: 0, type: 'smartFormOptionEntry', data: {}, version: null },
    });
  expect((await save('colours', 'Colours')).status()).toBe(200);
  for (let i = 1; i <= 51; i++) expect((await save(`colours:c${i}`, `Colour ${i}`)).status()).toBe(200);

  await page.goto('/admin/configuration/edit/root/colours');
  await expect(page.getByTestId('children-count')).toHaveText('Showing 50 out of 51 entries');
  await expect(page.getByTestId('children').locator('tbody tr')).toHaveCount(50);
  await page.getByTestId('children-filter').fill('colour 5');
  await expect(page.getByTestId('children-count')).toHaveText('Showing 3 out of 51 entries');

  await page.getByTestId('entry-name').fill('Colours of the rainbow');
  await page.getByTestId('entry-name').blur();
  let message = '';
  page.once('dialog', (dialog) => {
    message = dialog.message();
    void dialog.dismiss();
  });
  await page.getByRole('link', { name: 'Configuration' }).first().click();
  await expect
    .poll(() => message)
    .toBe('You have unsaved data, do you really want to navigate away from the page?');
  await expect(page).toHaveURL(/\/admin\/configuration\/edit\/root\/colours$/);
  await page.getByTestId('save-entry').click();
  await expect(page.getByRole('heading', { name: 'Colours of the rainbow' })).toBeVisible();
});

test('the request number prefix is checked as it is typed', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration/edit/root/requestSettings');
  const prefix = page.getByTestId('request-number-prefix');
  for (const typed of ['a1b', 'ab', 'x-y']) {
    await prefix.fill(typed);
    await expect(page.getByText('Exactly 3 letters.')).toBeVisible();
  }
  await prefix.fill('dos');
  await expect(prefix).toHaveValue('DOS');
  await expect(page.getByText('Exactly 3 letters.')).toHaveCount(0);
});

test('the add-configuration form checks the scope path before Add', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration');
  for (const typed of ['abc', '/ORG/Acme/']) {
    await page.getByTestId('add-scope-path').fill(typed);
    await page.getByTestId('add-scope-path').blur();
    await expect(page.getByText('Enter a scope path such as /entityType/<id or name>/.')).toBeVisible();
    await expect(page.getByTestId('add-configuration')).toBeDisabled();
  }
  await page.getByTestId('add-scope-path').fill('/org/newco/');
  await expect(page.getByTestId('add-configuration')).toBeEnabled();
});
