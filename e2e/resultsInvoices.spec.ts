import { withDatabase } from './db';
import { expect, pick, signIn, test } from './fixtures';

// Results and invoices: a handler adds a result and quality-assures it, adds an invoice and pays it
// through the payee search, then mails the remittance advice.

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const shot = (name: string) => test.info().outputPath(`${name}.png`);

test('a handler adds a result and QAs it, adds an invoice and pays it', async ({ page }) => {
  const n = await withDatabase(async (client) => {
    const r = await client.query(
      `select request_number from requests where status <> 'closed' and scope like '/org/acme/%'
       order by submitted_at desc limit 1`,
    );
    return r.rows[0].request_number as string;
  });
  await signIn(page, 'handler');
  await page.goto(`/requests/${n}`);
  await expect(page.getByTestId('request-page')).toBeVisible();

  // Add a result: the tag has no empty choice and the save waits for file and tag.
  await page.getByTestId('action-addResult').click();
  const resultPanel = page.getByTestId('panel-addResult');
  await expect(resultPanel.getByTestId('panel-save')).toBeDisabled();
  await resultPanel
    .getByTestId('file-upload')
    .locator('input[type=file]')
    .setInputFiles({ name: 'gp-records.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(resultPanel.getByTestId('file-upload')).toContainText('gp-records.pdf');
  await pick(page, 'tag-documentType', 'Medical records');
  await page.screenshot({ path: shot('add-result'), fullPage: true });
  await resultPanel.getByTestId('panel-save').click();
  const resultItem = page.getByTestId('result-item').first();
  await expect(resultItem).toHaveAttribute('data-status', 'awaitingQa');
  await expect(resultItem).toContainText('gp-records.pdf');
  // Its Quality Assure Result task is completed by the QA, not by hand: no Complete while it waits.
  const qaTask = page.locator('[data-testid="task-item"][data-type="qualityAssureResult"]').first();
  await expect(qaTask).toBeVisible();
  await expect(qaTask.getByTestId('task-complete')).toHaveCount(0);

  // Quality-assure it on its page, choosing the item types it covers.
  await resultItem.getByTestId('result-link').click();
  await expect(page.getByTestId('result-page')).toBeVisible();
  await expect(page.getByTestId('result-status')).toHaveText('Awaiting QA');
  await expect(page.getByTestId('qa-section')).toHaveCount(0);
  await page.getByTestId('action-qualityAssure').click();
  const panel = page.getByTestId('panel-qualityAssure');
  const boxes = panel.locator('input[type=checkbox]');
  if ((await boxes.count()) > 0) {
    await expect(page.getByTestId('qa-confirm')).toBeDisabled();
    await boxes.first().check();
  }
  await page.screenshot({ path: shot('qa-panel'), fullPage: true });
  await page.getByTestId('qa-confirm').click();
  await expect(page.getByTestId('result-status')).toHaveText('QA Done');
  await expect(page.getByTestId('action-qualityAssure')).toHaveCount(0);
  await page.screenshot({ path: shot('result-page'), fullPage: true });

  // Discard asks with the spec's words; cancelling keeps the result.
  await page.getByTestId('action-discard').click();
  await expect(page.getByTestId('discard-confirmation')).toHaveText(
    'Press confirm to discard this item, the action can not be reversed.',
  );
  await page.getByTestId('discard-cancel').click();
  await expect(page.getByTestId('result-status')).toHaveText('QA Done');

  // Add an invoice with its amounts.
  await page.getByTestId('back-to-request').click();
  await page.getByTestId('action-addInvoice').click();
  const invoicePanel = page.getByTestId('panel-addInvoice');
  await invoicePanel
    .getByTestId('file-upload')
    .locator('input[type=file]')
    .setInputFiles({ name: 'invoice-77.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(invoicePanel.getByTestId('file-upload')).toContainText('invoice-77.pdf');
  await pick(page, 'tag-invoiceType', 'Records fee');
  await invoicePanel.getByTestId('invoice-amountExclusiveTax').fill('1,000');
  await invoicePanel.getByTestId('invoice-tax').fill('100');
  await invoicePanel.getByTestId('invoice-amount').fill('1,000.5');
  await expect(invoicePanel).toContainText('The amount must equal the amount excl. tax plus the tax.');
  await expect(invoicePanel.getByTestId('panel-save')).toBeDisabled();
  await invoicePanel.getByTestId('invoice-amount').fill('1,100.00');
  await invoicePanel.getByTestId('invoice-notice').fill('Payable within 30 days.');
  await page.screenshot({ path: shot('add-invoice'), fullPage: true });
  await invoicePanel.getByTestId('panel-save').click();
  const invoiceItem = page.getByTestId('invoice-item').first();
  await expect(invoiceItem).toHaveAttribute('data-status', 'waiting');
  await expect(invoiceItem.getByTestId('invoice-amount')).toHaveText('AUD 1,100.00');
  // Its Pay Invoice task is completed by the payment: no Complete while the invoice waits.
  const payTask = page.locator('[data-testid="task-item"][data-type="payInvoice"]').first();
  await expect(payTask).toBeVisible();
  await expect(payTask.getByTestId('task-complete')).toHaveCount(0);
  await page.screenshot({ path: shot('request-lists'), fullPage: true });

  // Pay through the payee search: the payee record fills and locks the payee fields.
  await invoiceItem.getByTestId('invoice-link').click();
  await expect(page.getByTestId('invoice-page')).toBeVisible();
  await page.getByTestId('action-pay').click();
  await expect(page).toHaveURL(/action=select-payee/);
  await page.getByTestId('payee-search-name').fill('sydney city');
  await page.getByTestId('payee-search-submit').click();
  await expect(page.getByTestId('payee-hit')).toHaveCount(1);
  await page.screenshot({ path: shot('payee-search'), fullPage: true });
  await page.getByTestId('payee-select').click();
  await expect(page.getByTestId('pay-payeeName')).toHaveValue(/^Sydney City Hospital/); // the admin journey may have renamed it
  await expect(page.getByTestId('pay-payeeName')).toBeDisabled();
  await expect(page.getByTestId('pay-amount')).toHaveValue('1,100.00');
  await expect(page.getByTestId('pay-confirm')).toBeDisabled();
  await pick(page, 'pay-method', 'Bank transfer');
  await expect(page.getByTestId('pay-bankAccount')).toHaveValue('062-000 1234 5678');
  // A payment is in the invoice's currency: the list offers that one only.
  await page.getByTestId('pay-currency').click();
  await expect(page.getByRole('option')).toHaveCount(1);
  await expect(page.getByRole('option')).toHaveText(/^AUD/);
  await page.keyboard.press('Escape');
  await page.getByTestId('pay-amount').fill('1,200');
  await expect(page.getByTestId('pay-form')).toContainText(
    'The amount must equal the amount excl. tax plus the tax.',
  );
  await expect(page.getByTestId('pay-confirm')).toBeDisabled();
  await page.getByTestId('pay-invoiceReferenceNumber').fill('INV-77');
  // A part payment: the invoice keeps what it billed and shows what is left.
  await page.getByTestId('pay-amountExclusiveTax').fill('500');
  await page.getByTestId('pay-tax').fill('50');
  await page.getByTestId('pay-amount').fill('550');
  await expect(page.getByTestId('pay-confirm')).toBeEnabled();
  await expect(page.getByTestId('pay-amount')).not.toHaveAttribute('data-error');
  await page.screenshot({ path: shot('pay-form'), fullPage: true });
  await page.getByTestId('pay-confirm').click();
  await expect(page.getByTestId('invoice-paid')).toContainText('AUD 550.00');
  await expect(page.getByTestId('invoice-balance')).toContainText('AUD 550.00');
  await expect(page.getByTestId('invoice-amount')).toContainText('AUD 1,100.00');
  await expect(page.getByTestId('invoice-status')).not.toHaveText('Paid');
  await page.screenshot({ path: shot('invoice-part-paid'), fullPage: true });

  // The rest: the balance is offered, and paying it settles the invoice.
  await page.getByTestId('action-pay').click();
  await page.getByTestId('payee-search-name').fill('sydney city');
  await page.getByTestId('payee-search-submit').click();
  await page.getByTestId('payee-select').click();
  await pick(page, 'pay-method', 'Bank transfer');
  await expect(page.getByTestId('pay-amount')).toHaveValue('550.00');
  // The balance comes split as what is left of the amount excl. tax and of the tax: Confirm works as offered.
  await expect(page.getByTestId('pay-amountExclusiveTax')).toHaveValue('500.00');
  await expect(page.getByTestId('pay-tax')).toHaveValue('50.00');
  await page.getByTestId('pay-invoiceReferenceNumber').fill('INV-77');
  await expect(page.getByTestId('pay-confirm')).toBeEnabled();
  await page.getByTestId('pay-amount').fill('600');
  await page.getByTestId('pay-amountExclusiveTax').fill('550');
  await page.getByTestId('pay-tax').fill('50');
  await page.getByTestId('pay-confirm').click();
  await expect(page.getByTestId('pay-form')).toContainText(
    'The amount cannot exceed the balance of AUD 550.00.',
  );
  // A refusal is the server's answer, not a failure to reach it (issue 33, item 1).
  await expect(page.getByTestId('error-banner')).toContainText('This was not done');
  await expect(page.getByTestId('error-banner')).not.toContainText('Server Communication Error');
  await page.getByTestId('pay-amountExclusiveTax').fill('500');
  await page.getByTestId('pay-amount').fill('550');
  await page.getByTestId('pay-confirm').click();
  await expect(page.getByTestId('invoice-status')).toHaveText('Paid');
  await expect(page.getByTestId('invoice-balance')).toContainText('AUD 0.00');
  await expect(page).not.toHaveURL(/action=select-payee/);
  await expect(page.getByTestId('payment-amount')).toHaveText([/AUD 550\.00/, /AUD 550\.00/]);
  await expect(page.getByTestId('payment-payee-link').first()).toHaveAttribute(
    'href',
    /\/admin\/payees\/edit\/\d+/,
  );
  await expect(page.getByTestId('action-pay')).toHaveCount(0);

  // The remittance advice goes to the payee's address with the PDF attached.
  await page.getByTestId('action-sendRemittanceAdvice').click();
  await expect(page.getByTestId('remittance-email')).toHaveValue('accounts@sydneycity.example');
  await page.getByTestId('remittance-send').click();
  await expect(page.getByTestId('remittance-file')).toHaveText(`Remittance advice ${n}.pdf`);
  await page.screenshot({ path: shot('invoice-paid'), fullPage: true });
  const mail = await withDatabase(async (client) => {
    const r = await client.query(
      `select subject, attachments from mail_outbox where "to" = 'accounts@sydneycity.example'
       order by id desc limit 1`,
    );
    return r.rows[0] as { subject: string; attachments: { contentType: string; name: string }[] };
  });
  expect(mail.subject).toBe(`Remittance advice: request ${n}`);
  expect(mail.attachments).toEqual([
    expect.objectContaining({ contentType: 'application/pdf', name: `Remittance advice ${n}.pdf` }),
  ]);

  // Back on the request page the lists show the new states.
  await page.getByTestId('back-to-request').click();
  await expect(page.getByTestId('invoice-item').first()).toHaveAttribute('data-status', 'paid');
  await expect(page.getByTestId('result-item').first()).toHaveAttribute('data-status', 'qaDone');
  // The history says how the payer signed in (issue 35): the handler used a password alone.
  const paid = page.getByTestId('history-entry').filter({ hasText: 'Paid an invoice' }).first();
  await expect(paid.getByTestId('history-authenticated-by')).toHaveText('Signed in with a password alone');
  await paid.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('payment-history') });
});
