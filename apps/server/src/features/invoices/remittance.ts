import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { formatMinorUnits } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Trx } from '../../db/database.js';
import type { FileStorage } from '../../files/storage.js';
import { fieldsInvalid } from '../../http/errors.js';
import { enqueueMail } from '../../mail/outbox.js';
import { getRequestSettings } from '../configuration/index.js';
import { touchRequest } from '../requests/index.js';
import type { ItemActionContext } from '../results/index.js';
import { renderRemittanceAdvicePdf } from './remittancePdf.js';
import {
  findPayment,
  type InvoiceRow,
  insertGeneratedRequestFile,
  setRemittanceAdvice,
} from './repository.js';

const LOGO_LIMIT = 5 * 1024 * 1024;

/** The configured logo's bytes; a logo that is missing or too large is left out, not fatal. */
async function readLogo(storage: FileStorage, key: string | undefined): Promise<Uint8Array | undefined> {
  if (!key) return undefined;
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of await storage.open(key)) {
      size += (chunk as Buffer).length;
      if (size > LOGO_LIMIT) return undefined;
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  } catch {
    return undefined;
  }
}

/**
 * Makes the remittance advice PDF of one payment of an invoice (the one named, or the newest), keeps
 * it on the request (the payment and the invoice link the newest one) and mails it to the address
 * given, all in the action's transaction: the mail is queued exactly when the advice was recorded.
 * It states that payment's amounts: a part payment's advice tells the payee what this payment was.
 */
export async function sendRemittanceAdvice(
  trx: Trx,
  { deps, actor, request, item }: ItemActionContext<InvoiceRow>,
  email: string,
  paymentId?: string,
): Promise<void> {
  const row = await findPayment(trx, item.id, paymentId);
  if (!row)
    throw fieldsInvalid({
      paymentId: 'The invoice has no such payment.',
    });
  const payment = {
    payeeName: row.payee_name,
    payeeReferenceNumber: row.payee_reference_number,
    invoiceReferenceNumber: row.invoice_reference_number,
    method: row.method,
    currency: row.currency,
    amountExclusiveTax: Number(row.amount_exclusive_tax),
    tax: Number(row.tax),
    amount: Number(row.amount),
  };
  const n = request.request_number;
  const settings = await getRequestSettings(trx, request.scope);
  const pdf = await renderRemittanceAdvicePdf({
    logo: await readLogo(deps.files.storage, settings?.remittanceAdviceLogo?.key),
    requestNumber: n,
    applicantName: request.applicant_name,
    paidAt: row.paid_at,
    ...payment,
  });
  const key = randomBytes(16).toString('base64url');
  const name = `Remittance advice ${n}.pdf`;
  await deps.files.storage.write(key, Readable.from(Buffer.from(pdf)));
  await insertGeneratedRequestFile(trx, {
    key,
    name,
    contentType: 'application/pdf',
    size: pdf.length,
    requestNumber: n,
    createdBy: actor.id,
  });
  await setRemittanceAdvice(trx, item.id, row.id, key);
  const money = `${payment.currency} ${formatMinorUnits(payment.amount)}`;
  await enqueueMail(trx, {
    to: email,
    // The request's administrators see it in the outbox.
    scope: request.scope,
    subject: `Remittance advice: request ${n}`,
    text: [
      `Dear ${payment.payeeName},`,
      '',
      `We have paid ${money}${payment.invoiceReferenceNumber ? ` for your invoice ${payment.invoiceReferenceNumber}` : ''} (request ${n}).`,
      'The remittance advice is attached.',
    ].join('\n'),
    attachments: [{ fileKey: key, name, contentType: 'application/pdf' }],
    requestNumber: n,
  });
  await recordEvent(trx, {
    type: 'request.remittanceAdviceSent',
    aggregateType: 'request',
    aggregateId: n,
    actor: actor.id,
    payload: {
      summary: `Sent the remittance advice of an invoice to ${email}.`,
      invoiceId: item.id,
      paymentId: row.id,
    },
  });
  await touchRequest(trx, n, actor.id);
}
