import { formatDate, formatMinorUnits, PAYMENT_METHOD_NAMES, type PaymentMethod } from '@dossier/core';
import { PDFDocument, type PDFImage, rgb, StandardFonts } from 'pdf-lib';

// The remittance advice sent to a payee for one payment of an invoice (a part payment or the one
// that settled it): the configured logo (request settings remittanceAdviceLogo), who was paid, for
// which invoice and request, how, and how much this payment was.

export interface RemittanceAdviceInput {
  logo?: Uint8Array | undefined;
  requestNumber: string;
  applicantName: string;
  paidAt: Date;
  payeeName: string;
  payeeReferenceNumber?: string | null;
  invoiceReferenceNumber?: string | null;
  method: string;
  currency: string;
  /** Minor units. */
  amountExclusiveTax: number;
  tax: number;
  amount: number;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const GREY = rgb(0.4, 0.4, 0.4);

/** Standard fonts encode WinAnsi only: anything else is shown as '?'. */
const printable = (text: string) => text.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');

async function embedLogo(doc: PDFDocument, bytes: Uint8Array | undefined): Promise<PDFImage | undefined> {
  if (!bytes || bytes.length < 4) return undefined;
  try {
    if (bytes[0] === 0x89 && bytes[1] === 0x50) return await doc.embedPng(bytes);
    if (bytes[0] === 0xff && bytes[1] === 0xd8) return await doc.embedJpg(bytes);
  } catch {
    // A logo that cannot be read is left out; the advice itself matters more.
  }
  return undefined;
}

export async function renderRemittanceAdvicePdf(input: RemittanceAdviceInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Remittance advice ${input.requestNumber}`);
  const page = doc.addPage(A4);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  let y = A4[1] - MARGIN;

  const logo = await embedLogo(doc, input.logo);
  if (logo) {
    const scaled = logo.scaleToFit(200, 80);
    page.drawImage(logo, { x: MARGIN, y: y - scaled.height, width: scaled.width, height: scaled.height });
    y -= scaled.height + 24;
  }
  page.drawText('Remittance Advice', { x: MARGIN, y: y - 20, size: 20, font: bold });
  y -= 50;

  const row = (label: string, value: string, strong = false) => {
    page.drawText(printable(label), { x: MARGIN, y, size: 11, font, color: GREY });
    page.drawText(printable(value), { x: MARGIN + 170, y, size: 11, font: strong ? bold : font });
    y -= 20;
  };
  // The day of payment in the organisation's zone, as the pages and reports show it.
  row('Date paid', formatDate(input.paidAt));
  row('Paid to', input.payeeName, true);
  if (input.payeeReferenceNumber) row('Payee reference', input.payeeReferenceNumber);
  if (input.invoiceReferenceNumber) row('Invoice reference', input.invoiceReferenceNumber);
  row('Request number', input.requestNumber);
  row('Applicant', input.applicantName);
  row('Payment method', PAYMENT_METHOD_NAMES[input.method as PaymentMethod] ?? input.method);
  y -= 10;
  row('Amount excl. tax', `${input.currency} ${formatMinorUnits(input.amountExclusiveTax)}`);
  row('Tax', `${input.currency} ${formatMinorUnits(input.tax)}`);
  row('Amount paid', `${input.currency} ${formatMinorUnits(input.amount)}`, true);
  y -= 20;
  page.drawText('This advice confirms the payment of the invoice named above.', {
    x: MARGIN,
    y,
    size: 10,
    font,
    color: GREY,
  });
  return doc.save();
}
