import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Payment } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { DbOrTrx } from '../../db/database.js';
import type { FileStorage } from '../../files/storage.js';
import { enqueueMail } from '../../mail/outbox.js';
import { getRequestSettings } from '../configuration/effective.js';
import { touchRequest } from '../requests/repository.js';
import type { ItemActionContext } from '../results/itemActions.js';
import { formatMinorUnits, renderRemittanceAdvicePdf } from './remittancePdf.js';
import { type InvoiceRow, insertGeneratedRequestFile, setRemittanceAdvice } from './repository.js';

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
 * Makes the remittance advice PDF of a paid invoice, keeps it on the request (the invoice links the
 * newest one) and mails it to the address given, all in the action's transaction: the mail is
 * queued exactly when the advice was recorded.
 */
export async function sendRemittanceAdvice(
  trx: DbOrTrx,
  { deps, actor, request, item }: ItemActionContext<InvoiceRow>,
  email: string,
): Promise<void> {
  const payment = item.payment as Payment;
  const n = request.request_number;
  const settings = await getRequestSettings(trx, request.scope);
  const pdf = await renderRemittanceAdvicePdf({
    logo: await readLogo(deps.files.storage, settings?.remittanceAdviceLogo?.key),
    requestNumber: n,
    applicantName: request.applicant_name,
    paidAt: item.paid_at ?? new Date(),
    payeeName: payment.payeeName,
    payeeReferenceNumber: payment.payeeReferenceNumber,
    invoiceReferenceNumber: payment.invoiceReferenceNumber,
    method: payment.method,
    currency: payment.currency,
    amountExclusiveTax: payment.amountExclusiveTax,
    tax: payment.tax,
    amount: payment.amount,
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
  await setRemittanceAdvice(trx, item.id, key);
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
    payload: { summary: `Sent the remittance advice of an invoice to ${email}.`, invoiceId: item.id },
  });
  await touchRequest(trx, n, actor.id);
}
